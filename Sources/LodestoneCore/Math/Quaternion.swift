#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit quaternion `w + xi + yj + zk` (Hamilton convention) for attitude.
///
/// Attitudes in Lodestone rotate body-frame vectors into the earth frame (ENU):
/// `v_earth = q ⊗ v_body ⊗ q*`, the same convention as BROAD's `opt_quat`.
@frozen
public struct Quaternion: Hashable, Sendable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about `axis` (right hand rule).
    @inlinable
    public init(axis: Vector3, angle: Double) {
        let a = axis.normalized
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// Rotation by the rotation vector `v` (axis × angle in radians).
    @inlinable
    public init(rotationVector v: Vector3) {
        let angle = v.length
        if angle < 1e-9 {
            // Second-order series keeps this exact to double precision near zero.
            self = Quaternion(w: 1 - angle * angle / 8, x: v.x / 2, y: v.y / 2, z: v.z / 2).normalized
        } else {
            self.init(axis: v, angle: angle)
        }
    }

    /// The quaternion of a proper rotation matrix (Shepperd's method, stable for all angles).
    @inlinable
    public init(rotationMatrix m: Matrix3) {
        let t = m.trace
        let q: Quaternion
        if t > 0 {
            let s = (t + 1).squareRoot() * 2
            q = Quaternion(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] > m[1, 1], m[0, 0] > m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            q = Quaternion(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
        self = q.w < 0 ? -q : q
    }

    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    @inlinable public var vector: Vector3 { Vector3(x, y, z) }

    @inlinable
    public var normalized: Quaternion {
        let n = norm
        return n > 0 ? Quaternion(w: w / n, x: x / n, y: y / n, z: z / n) : .identity
    }

    /// The rotation matrix R with `R · v_body = v_earth`.
    /// Always inlined: gyro fusion takes it every sample, and a call's overhead is a fair part of it.
    @inlinable @inline(__always)
    public var rotationMatrix: Matrix3 {
        let ww = w * w, xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return Matrix3(ww + xx - yy - zz, 2 * (xy - wz), 2 * (xz + wy),
                       2 * (xy + wz), ww - xx + yy - zz, 2 * (yz - wx),
                       2 * (xz - wy), 2 * (yz + wx), ww - xx - yy + zz)
    }

    /// Rotates `v` by this (unit) quaternion: `q ⊗ v ⊗ q*`.
    /// Always inlined: the per-sample path rotates a vector or two every sample.
    @inlinable @inline(__always)
    public func rotate(_ v: Vector3) -> Vector3 {
        let u = vector
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    /// Rotation angle in radians, in [0, π].
    @inlinable
    public var angle: Double { 2 * atan2(vector.length, abs(w)) }

    /// Dot product of the four components.
    @inlinable
    public func dot(_ o: Quaternion) -> Double { w * o.w + x * o.x + y * o.y + z * o.z }

    /// Normalized linear interpolation along the shorter arc; `t` = 0 gives `self`.
    @inlinable
    public func nlerp(to o: Quaternion, _ t: Double) -> Quaternion {
        let s = dot(o) < 0 ? -t : t
        return Quaternion(w: w + (o.w * s - w * t), x: x + (o.x * s - x * t),
                          y: y + (o.y * s - y * t), z: z + (o.z * s - z * t)).normalized
    }

    /// Always inlined: gyro fusion composes a step with the attitude every sample.
    @inlinable @inline(__always)
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    @inlinable
    public static prefix func - (q: Quaternion) -> Quaternion { Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }

    public var description: String { "[\(w), \(x), \(y), \(z)]" }
}
