#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Trigonometry in degrees that is exact at multiples of 90°.
///
/// Converting 90° to radians and back is inexact, so `cos(90° in radians)` is
/// 6e-17 instead of 0. The geodesic solution branches on exact zeros (points on
/// the equator, on one meridian, at a pole), so degree arguments are reduced
/// to [-45°, 45°] exactly before any conversion.
enum DegreeMath {
    /// sin and cos of `degrees`; exact 0 and ±1 at multiples of 90°.
    @inline(__always)
    static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        var quadrant: Int32 = 0
        // remquo is exact: the remainder lies in [-45, 45].
        let reduced = remquo(degrees, 90, &quadrant) * Angle.radiansPerDegree
        let s = sin(reduced), c = cos(reduced)
        switch quadrant & 3 {
        case 0: return (s, c + 0)
        case 1: return (c, 0 - s)
        case 2: return (0 - s, 0 - c)
        default: return (0 - c, s + 0)
        }
    }

    /// atan2 in degrees, in [-180, 180]; exact for results that are multiples of 45°.
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        // Fold into the octant |y| <= x, where atan2 is well conditioned, then unfold exactly.
        var y = y, x = x
        var quadrant = 0
        if abs(y) > abs(x) { swap(&x, &y); quadrant = 2 }
        if x.sign == .minus { x = -x; quadrant += 1 }
        let angle = atan2(y, x) * Angle.degreesPerRadian
        switch quadrant {
        case 1: return (y.sign == .minus ? -180 : 180) - angle
        case 2: return 90 - angle
        case 3: return angle - 90
        default: return angle
        }
    }

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
