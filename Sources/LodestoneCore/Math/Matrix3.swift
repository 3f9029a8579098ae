/// A 3×3 matrix of `Double`, stored by rows.
///
/// Used for soft-iron correction, mount matrices and rotation matrices.
@frozen
public struct Matrix3: Hashable, Sendable, CustomStringConvertible {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    @inlinable
    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        row0 = r0
        row1 = r1
        row2 = r2
    }

    /// Row-major entries `a b c; d e f; g h i`.
    @inlinable
    public init(_ a: Double, _ b: Double, _ c: Double,
                _ d: Double, _ e: Double, _ f: Double,
                _ g: Double, _ h: Double, _ i: Double) {
        self.init(rows: Vector3(a, b, c), Vector3(d, e, f), Vector3(g, h, i))
    }

    @inlinable
    public init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) {
        self.init(c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z)
    }

    /// The diagonal, (m₀₀, m₁₁, m₂₂).
    @inlinable public var diagonal: Vector3 { Vector3(row0.x, row1.y, row2.z) }

    @inlinable
    public init(diagonal d: Vector3) {
        self.init(d.x, 0, 0, 0, d.y, 0, 0, 0, d.z)
    }

    public static let identity = Matrix3(1, 0, 0, 0, 1, 0, 0, 0, 1)
    public static let zero = Matrix3(0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Entry at row `r`, column `c`.
    @inlinable
    public subscript(r: Int, c: Int) -> Double {
        get { r == 0 ? row0[c] : (r == 1 ? row1[c] : row2[c]) }
        set {
            switch r {
            case 0: row0[c] = newValue
            case 1: row1[c] = newValue
            default: row2[c] = newValue
            }
        }
    }

    @inlinable public var column0: Vector3 { Vector3(row0.x, row1.x, row2.x) }
    @inlinable public var column1: Vector3 { Vector3(row0.y, row1.y, row2.y) }
    @inlinable public var column2: Vector3 { Vector3(row0.z, row1.z, row2.z) }

    @inlinable
    public var transposed: Matrix3 { Matrix3(rows: column0, column1, column2) }

    @inlinable
    public var determinant: Double { row0.dot(row1.cross(row2)) }

    @inlinable
    public var trace: Double { row0.x + row1.y + row2.z }

    @inlinable
    public var isFinite: Bool { row0.isFinite && row1.isFinite && row2.isFinite }

    /// The inverse, or nil when the matrix is singular (|det| below `1e-300`).
    @inlinable
    public var inverse: Matrix3? {
        let c0 = row1.cross(row2), c1 = row2.cross(row0), c2 = row0.cross(row1)
        let det = row0.dot(c0)
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        return Matrix3(columns: c0, c1, c2) * (1 / det)
    }

    /// Largest absolute difference between entries.
    public func maxDifference(to o: Matrix3) -> Double {
        var m = 0.0
        for r in 0..<3 { for c in 0..<3 { m = max(m, abs(self[r, c] - o[r, c])) } }
        return m
    }

    @inlinable
    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v))
    }

    /// `mᵀ · v` without forming the transpose: for a rotation, from the frame
    /// it maps into back to the one it maps from.
    @inlinable
    public func transposedTimes(_ v: Vector3) -> Vector3 {
        row0 * v.x + row1 * v.y + row2 * v.z
    }

    @inlinable
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(a.row0.dot(bt.row0), a.row0.dot(bt.row1), a.row0.dot(bt.row2),
                       a.row1.dot(bt.row0), a.row1.dot(bt.row1), a.row1.dot(bt.row2),
                       a.row2.dot(bt.row0), a.row2.dot(bt.row1), a.row2.dot(bt.row2))
    }

    /// u·vᵀ.
    @inlinable
    public static func outer(_ u: Vector3, _ v: Vector3) -> Matrix3 {
        Matrix3(rows: v * u.x, v * u.y, v * u.z)
    }

    @inlinable
    public static func * (m: Matrix3, s: Double) -> Matrix3 {
        Matrix3(rows: m.row0 * s, m.row1 * s, m.row2 * s)
    }

    @inlinable
    public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2)
    }

    @inlinable
    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2)
    }

    public var description: String { "[\(row0); \(row1); \(row2)]" }
}
