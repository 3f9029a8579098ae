#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Eigenvalues and unit eigenvectors of a symmetric 3×3 matrix, by the cyclic
/// Jacobi method (Golub & Van Loan, *Matrix Computations*, §8.5): exact to
/// rounding, no pivoting, and an orthonormal basis even for equal eigenvalues.
public struct SymmetricEigen3: Sendable {
    /// Eigenvalues, ascending.
    public let values: [Double]
    /// `vectors[k]` is the unit eigenvector of `values[k]`.
    public let vectors: [Vector3]

    public init(_ m: Matrix3) {
        var a = Symmetric(m)
        var v = [Vector3.unitX, Vector3.unitY, Vector3.unitZ] // the rotations gathered, as columns
        for _ in 0..<50 {
            let off = a[0, 1] * a[0, 1] + a[0, 2] * a[0, 2] + a[1, 2] * a[1, 2]
            let scale = a[0, 0] * a[0, 0] + a[1, 1] * a[1, 1] + a[2, 2] * a[2, 2]
            if off == 0 || off <= 1e-30 * scale { break }
            for (p, q, r) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] where a[p, q] != 0 {
                Self.rotate(&a, &v, p, q, r)
            }
        }
        let order = [0, 1, 2].sorted { a[$0, $0] < a[$1, $1] }
        values = order.map { a[$0, $0] }
        vectors = order.map { v[$0] }
    }

    /// One Jacobi rotation in the plane (p, q), `r` the third axis: `A' = JᵀAJ`
    /// zeroes `a[p, q]`, and `V' = VJ`.
    private static func rotate(_ a: inout Symmetric, _ v: inout [Vector3], _ p: Int, _ q: Int, _ r: Int) {
        let app = a[p, p], aqq = a[q, q], apq = a[p, q], arp = a[r, p], arq = a[r, q]
        let theta = (aqq - app) / (2 * apq)
        let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
        let c = 1 / (t * t + 1).squareRoot(), s = t * c
        a[p, p] = c * c * app - 2 * s * c * apq + s * s * aqq
        a[q, q] = s * s * app + 2 * s * c * apq + c * c * aqq
        a[p, q] = 0
        a[r, p] = c * arp - s * arq
        a[r, q] = s * arp + c * arq
        (v[p], v[q]) = (v[p] * c - v[q] * s, v[p] * s + v[q] * c)
    }

    /// A symmetric 3×3 matrix kept as its upper triangle, on the stack.
    private struct Symmetric {
        var d: (Double, Double, Double, Double, Double, Double) // a00 a01 a02 a11 a12 a22

        init(_ m: Matrix3) { d = (m.row0.x, m.row0.y, m.row0.z, m.row1.y, m.row1.z, m.row2.z) }

        subscript(i: Int, j: Int) -> Double {
            get {
                switch (min(i, j), max(i, j)) {
                case (0, 0): d.0
                case (0, 1): d.1
                case (0, 2): d.2
                case (1, 1): d.3
                case (1, 2): d.4
                default: d.5
                }
            }
            set {
                switch (min(i, j), max(i, j)) {
                case (0, 0): d.0 = newValue
                case (0, 1): d.1 = newValue
                case (0, 2): d.2 = newValue
                case (1, 1): d.3 = newValue
                case (1, 2): d.4 = newValue
                default: d.5 = newValue
                }
            }
        }
    }
}
