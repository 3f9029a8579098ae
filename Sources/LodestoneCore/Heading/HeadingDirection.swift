#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A horizontal direction as a vector (east, north) in the earth frame.
///
/// The per-sample path keeps headings in this form: comparing two directions
/// needs only products, so the angle (an `atan2`) is computed only for the
/// headings that are delivered. The vector need not be unit length (for the
/// forward axis it is the cosine of the axis's elevation); ``normalized``
/// gives the unit vector.
@frozen
public struct HeadingDirection: Hashable, Sendable {
    public var east: Double
    public var north: Double

    @inlinable
    public init(east: Double, north: Double) {
        self.east = east
        self.north = north
    }

    /// The unit vector in the same direction; zero stays zero.
    @inlinable
    public var normalized: HeadingDirection {
        let l2 = east * east + north * north
        let s = l2 > 0 ? 1 / l2.squareRoot() : 0
        return HeadingDirection(east: east * s, north: north * s)
    }

    @inlinable
    public var squaredLength: Double { east * east + north * north }

    /// The direction of a heading in degrees clockwise from north.
    @inlinable
    public init(degrees: Double) {
        let r = degrees * Angle.radiansPerDegree
        east = sin(r)
        north = cos(r)
    }

    /// Degrees in [0, 360), clockwise from north.
    @inlinable
    public var degrees: Double {
        var d = atan2(east, north) * Angle.degreesPerRadian
        if d < 0 { d += 360 }
        return d >= 360 ? 0 : d
    }

    @inlinable
    public func dot(_ o: HeadingDirection) -> Double {
        east * o.east + north * o.north
    }
}
