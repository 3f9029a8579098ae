/// A small dense n×n matrix of `Double`, stored by rows.
///
/// Sized for the normal equations of the fits here (at most 10×10), where a
/// general-purpose linear-algebra library would be overkill.
struct SquareMatrix: Sendable, Equatable {
    let size: Int
    var storage: [Double]

    init(size: Int) {
        self.size = size
        storage = [Double](repeating: 0, count: size * size)
    }

    static func identity(_ size: Int) -> SquareMatrix {
        var m = SquareMatrix(size: size)
        for i in 0..<size { m[i, i] = 1 }
        return m
    }

    subscript(r: Int, c: Int) -> Double {
        get { storage[r * size + c] }
        set { storage[r * size + c] = newValue }
    }

    /// The rows and columns listed in `indices`, in that order.
    func submatrix(_ indices: [Int]) -> SquareMatrix {
        var m = SquareMatrix(size: indices.count)
        for (i, r) in indices.enumerated() {
            for (j, c) in indices.enumerated() { m[i, j] = self[r, c] }
        }
        return m
    }

    /// `Tᵀ · self · T` for an n×k matrix `T` given by its k columns.
    func congruence(columns t: [[Double]]) -> SquareMatrix {
        let k = t.count
        var out = SquareMatrix(size: k)
        for a in 0..<k {
            var st = [Double](repeating: 0, count: size)
            for r in 0..<size {
                var s = 0.0
                for c in 0..<size { s += self[r, c] * t[a][c] }
                st[r] = s
            }
            for b in a..<k {
                var s = 0.0
                for r in 0..<size { s += t[b][r] * st[r] }
                out[a, b] = s
                out[b, a] = s
            }
        }
        return out
    }

    func multiply(_ v: [Double]) -> [Double] {
        (0..<size).map { r in
            var s = 0.0
            for c in 0..<size { s += self[r, c] * v[c] }
            return s
        }
    }

    /// Solves `self · x = b` for symmetric positive-definite `self` (Cholesky,
    /// Golub & Van Loan §4.2). Nil when the matrix is not numerically positive-definite.
    func choleskySolve(_ b: [Double]) -> [Double]? {
        let n = size
        var l = storage
        for j in 0..<n {
            var d = l[j * n + j]
            for k in 0..<j { d -= l[j * n + k] * l[j * n + k] }
            guard d > 0, d.isFinite else { return nil }
            let ljj = d.squareRoot()
            l[j * n + j] = ljj
            for i in (j + 1)..<n {
                var s = l[i * n + j]
                for k in 0..<j { s -= l[i * n + k] * l[j * n + k] }
                l[i * n + j] = s / ljj
            }
        }
        var y = b
        for i in 0..<n {
            var s = y[i]
            for k in 0..<i { s -= l[i * n + k] * y[k] }
            y[i] = s / l[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = y[i]
            for k in (i + 1)..<n { s -= l[k * n + i] * y[k] }
            y[i] = s / l[i * n + i]
        }
        return y.allSatisfy(\.isFinite) ? y : nil
    }
}
