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
    public let values: Vector3
    /// The eigenvalues as a list, ascending.
    public var valueList: [Double] { [values.x, values.y, values.z] }
    /// `vectors[k]` is the unit eigenvector of the k-th eigenvalue.
    public let vectors: [Vector3]

    public init(_ m: Matrix3) {
        var a = [[m.row0.x, m.row0.y, m.row0.z], [m.row1.x, m.row1.y, m.row1.z], [m.row2.x, m.row2.y, m.row2.z]]
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        for _ in 0..<50 {
            let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
            let scale = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]
            if off <= 1e-30 * scale || off == 0 { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                Self.rotate(&a, &v, p, q)
            }
        }
        let order = [0, 1, 2].sorted { a[$0][$0] < a[$1][$1] }
        values = Vector3(a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]])
        vectors = order.map { Vector3(v[0][$0], v[1][$0], v[2][$0]) }
    }

    /// One Jacobi rotation that zeroes `a[p][q]`; `v` gathers the rotations as columns.
    private static func rotate(_ a: inout [[Double]], _ v: inout [[Double]], _ p: Int, _ q: Int) {
        let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
        let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
        let c = 1 / (t * t + 1).squareRoot(), s = t * c
        for k in 0..<3 {
            let akp = a[k][p], akq = a[k][q]
            a[k][p] = c * akp - s * akq
            a[k][q] = s * akp + c * akq
        }
        for k in 0..<3 {
            let apk = a[p][k], aqk = a[q][k]
            a[p][k] = c * apk - s * aqk
            a[q][k] = s * apk + c * aqk
        }
        for k in 0..<3 {
            let vkp = v[k][p], vkq = v[k][q]
            v[k][p] = c * vkp - s * vkq
            v[k][q] = s * vkp + c * vkq
        }
    }
}
