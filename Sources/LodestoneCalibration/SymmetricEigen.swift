import LodestoneCore

/// Eigenvalues and eigenvectors of a small symmetric matrix by the cyclic
/// Jacobi method (Golub & Van Loan, *Matrix Computations*, §8.5).
///
/// Jacobi is slow for big matrices but exact to rounding for the ≤10×10
/// matrices here, needs no pivoting and always returns an orthonormal
/// eigenbasis, which the matrix square roots below rely on. A `Matrix3` goes to
/// ``SymmetricEigen3`` instead, the same method kept on the stack.
struct SymmetricEigen: Sendable {
    /// Eigenvalues in ascending order.
    let values: [Double]
    /// `vectors[k]` is the unit eigenvector of `values[k]`.
    let vectors: [[Double]]

    init(_ matrix: SquareMatrix, maxSweeps: Int = 60) {
        let n = matrix.size
        var a = matrix
        // Symmetrise: callers pass matrices that are symmetric up to rounding.
        for r in 0..<n {
            for c in (r + 1)..<n {
                let m = 0.5 * (a[r, c] + a[c, r])
                a[r, c] = m
                a[c, r] = m
            }
        }
        var v = SquareMatrix.identity(n)
        var total = 0.0
        for x in a.storage { total += x * x }
        for _ in 0..<maxSweeps {
            var off = 0.0
            for p in 0..<n { for q in 0..<n where p != q { off += a[p, q] * a[p, q] } }
            if off <= 1e-30 * total || off == 0 { break }
            for p in 0..<(n - 1) {
                for q in (p + 1)..<n {
                    let apq = a[p, q]
                    if apq == 0 { continue }
                    // Rotation that zeroes a[p, q] (sym.schur2).
                    let tau = (a[q, q] - a[p, p]) / (2 * apq)
                    let t = (tau >= 0 ? 1.0 : -1.0) / (abs(tau) + (1 + tau * tau).squareRoot())
                    let c = 1 / (1 + t * t).squareRoot()
                    let s = t * c
                    for k in 0..<n {
                        let akp = a[k, p], akq = a[k, q]
                        a[k, p] = c * akp - s * akq
                        a[k, q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let apk = a[p, k], aqk = a[q, k]
                        a[p, k] = c * apk - s * aqk
                        a[q, k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let vkp = v[k, p], vkq = v[k, q]
                        v[k, p] = c * vkp - s * vkq
                        v[k, q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0, $0] < a[$1, $1] }
        values = order.map { a[$0, $0] }
        vectors = order.map { k in (0..<n).map { v[$0, k] } }
    }
}

extension Matrix3 {
    var squareMatrix: SquareMatrix {
        var m = SquareMatrix(size: 3)
        for r in 0..<3 { for c in 0..<3 { m[r, c] = self[r, c] } }
        return m
    }

    /// `(self + selfᵀ) / 2`.
    var symmetricPart: Matrix3 { (self + transposed) * 0.5 }

    var frobeniusNorm: Double {
        (row0.squaredLength + row1.squaredLength + row2.squaredLength).squareRoot()
    }

    /// Eigenvalues (ascending) and eigenvectors (as the matching columns of a
    /// rotation matrix) of the symmetric part of this matrix (``SymmetricEigen3``).
    var symmetricEigen: (values: Vector3, vectors: Matrix3) {
        let e = SymmetricEigen3(symmetricPart)
        return (Vector3(e.values[0], e.values[1], e.values[2]), Matrix3(columns: e.vectors[0], e.vectors[1], e.vectors[2]))
    }

    /// `V · diag(f(λ)) · Vᵀ` for the eigen-decomposition of the symmetric part.
    func symmetricFunction(_ f: (Double) -> Double) -> Matrix3 {
        let (values, v) = symmetricEigen
        let d = Matrix3(diagonal: Vector3(f(values.x), f(values.y), f(values.z)))
        return v * d * v.transposed
    }

    /// Singular values, descending: square roots of the eigenvalues of `selfᵀ·self`.
    var singularValues: Vector3 {
        let v = (transposed * self).symmetricEigen.values
        return Vector3(max(v.z, 0).squareRoot(), max(v.y, 0).squareRoot(), max(v.x, 0).squareRoot())
    }

    /// Ratio of largest to smallest singular value (infinite when singular).
    var conditionNumber: Double {
        let s = singularValues
        return s.z > 0 ? s.x / s.z : .infinity
    }
}
