#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 3-vector of `Double`, used for field, acceleration and angular rate.
///
/// A plain struct rather than `SIMD3<Double>`: the arithmetic here is small and
/// scalar code lets the optimizer keep everything in registers without SIMD
/// lane shuffles.
@frozen
public struct Vector3: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.init(x, y, z)
    }

    public static let zero = Vector3(0, 0, 0)
    public static let unitX = Vector3(1, 0, 0)
    public static let unitY = Vector3(0, 1, 0)
    public static let unitZ = Vector3(0, 0, 1)

    @inlinable public var squaredLength: Double { x * x + y * y + z * z }
    @inlinable public var length: Double { squaredLength.squareRoot() }

    /// The unit vector in the same direction; the zero vector stays zero.
    @inlinable
    public var normalized: Vector3 {
        let l = length
        return l > 0 ? self * (1 / l) : .zero
    }

    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    @inlinable
    public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }

    @inlinable
    public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    /// Angle to another vector in radians, robust for nearly parallel vectors.
    @inlinable
    public func angle(to o: Vector3) -> Double {
        atan2(cross(o).length, dot(o))
    }

    @inlinable
    public subscript(index: Int) -> Double {
        get { index == 0 ? x : (index == 1 ? y : z) }
        set {
            switch index {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { a * (1 / s) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }
    @inlinable public static func *= (a: inout Vector3, s: Double) { a = a * s }

    public var description: String { "(\(x), \(y), \(z))" }
}
