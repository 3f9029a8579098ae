#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Trigonometry in degrees that is exact at multiples of 90°, for the geodesics
/// (steering) and the magnetic model.
///
/// Converting 90° to radians is inexact, so `cos(90° in radians)` is 6e-17
/// instead of 0, and longitudes 180° and −180° (or λ and λ + 360°) differ in the
/// last bits. The geodesic solution branches on exact zeros (points on the
/// equator, on one meridian, at a pole), and the model's poles need exact
/// cosines; so arguments are reduced in degrees, exactly, to [−45°, 45°] before
/// any conversion (the way GeographicLib's `sincosd` does).
public enum DegreeTrigonometry {
    /// sin and cos of `degrees`: exact 0 and ±1 at multiples of 90°, the same for
    /// angles a whole number of turns apart.
    @inlinable
    public static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        var quadrant: Int32 = 0
        // remquo is exact: the remainder lies in [-45, 45].
        let reduced = remquo(degrees, 90, &quadrant) * Angle.radiansPerDegree
        let s = sin(reduced), c = cos(reduced)
        // Adding or subtracting 0 turns a −0 into +0.
        switch quadrant & 3 {
        case 0: return (s, c + 0)
        case 1: return (c, 0 - s)
        case 2: return (0 - s, 0 - c)
        default: return (0 - c, s + 0)
        }
    }

    /// atan2 in degrees, in [-180, 180]; exact for results that are multiples of 45°.
    @inlinable
    public static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
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
}
