#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A horizontal direction as a unit vector (east, north) in the earth frame.
///
/// The per-sample path keeps headings in this form: comparing two directions
/// is a dot product, so the angle (an `atan2`) is computed only for the
/// headings that are delivered.
@frozen
public struct HeadingDirection: Hashable, Sendable {
    public var east: Double
    public var north: Double

    /// Normalizes `(east, north)`; zero stays zero.
    @inlinable
    public init(east: Double, north: Double) {
        let l2 = east * east + north * north
        let s = l2 > 0 ? 1 / l2.squareRoot() : 0
        self.east = east * s
        self.north = north * s
    }

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

    /// Cosine of the angle between two unit directions.
    @inlinable
    public func cosine(to o: HeadingDirection) -> Double {
        east * o.east + north * o.north
    }
}
