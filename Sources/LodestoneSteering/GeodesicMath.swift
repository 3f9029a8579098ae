#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// The small exact-arithmetic helpers of the geodesic solution (Karney 2013, and
/// GeographicLib's conventions); its exact degree trigonometry is
/// ``DegreeTrigonometry`` in LodestoneCore.
enum GeodesicMath {
    /// Rounds angles smaller than 1/16° to a multiple of 2^-56°.
    ///
    /// A latitude of 1e-300° would otherwise give an ellipsoid point that is
    /// "not quite" on the equator and sends the solution down a different
    /// branch than 0° does; this rounding makes such inputs behave like 0.
    @inline(__always)
    static func roundTiny(_ degrees: Double) -> Double {
        let threshold = 1.0 / 16
        let magnitude = abs(degrees)
        let rounded = magnitude < threshold ? threshold - (threshold - magnitude) : magnitude
        return degrees.sign == .minus ? -rounded : rounded
    }

    /// `lon2 - lon1` reduced to [-180, 180], plus the rounding error of that sum.
    ///
    /// Near-antipodal solutions need `180° - difference` to full precision; the
    /// error term lets the caller form it without the cancellation a plain
    /// subtraction would suffer. At ±180 the sign is chosen so that
    /// `difference + error` stays inside the interval.
    @inline(__always)
    static func longitudeDifference(_ lon1: Double, _ lon2: Double) -> (difference: Double, error: Double) {
        // Both remainders are exact, so the only rounding is in the sum.
        let (sum, sumError) = twoSum(remainder(-lon1, 360), remainder(lon2, 360))
        var difference = remainder(sum, 360)
        if difference == 180, sumError > 0 {
            difference = -180
        } else if difference == -180, sumError <= 0 {
            difference = 180
        }
        let (total, error) = twoSum(difference, sumError)
        return (total, error)
    }

    /// `a + b` and its exact rounding error (Knuth's two-sum).
    @inline(__always)
    static func twoSum(_ a: Double, _ b: Double) -> (sum: Double, error: Double) {
        let s = a + b
        let bVirtual = s - a
        let aVirtual = s - bVirtual
        let error = (a - aVirtual) + (b - bVirtual)
        return (s, error)
    }

    /// (x, y) scaled to unit length; callers guarantee it is not the zero vector.
    @inline(__always)
    static func normalize(_ x: inout Double, _ y: inout Double) {
        let r = hypot(x, y)
        x /= r
        y /= r
    }
}
