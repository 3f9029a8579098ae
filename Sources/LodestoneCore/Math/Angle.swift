/// Degree helpers shared by every interface (angles are degrees at interfaces,
/// radians inside the math).
public enum Angle {
    public static let degreesPerRadian = 180.0 / Double.pi
    public static let radiansPerDegree = Double.pi / 180.0

    /// `degrees` wrapped into [0, 360).
    @inlinable
    public static func normalized360(_ degrees: Double) -> Double {
        // Most angles given are within a turn of [0, 360) (a heading plus a declination):
        // there the remainder is the angle itself or the angle minus 360, both exact, and
        // fmod, a library call, is not needed. The results are the same bits.
        if degrees >= 0 {
            if degrees < 360 { return degrees }
            if degrees < 720 { return degrees - 360 }
        }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        // -1e-17 + 360 rounds to 360.0; keep the half-open interval.
        return d >= 360 ? 0 : d
    }

    /// `degrees` rounded half away from zero to `decimals` (0…9) places, then wrapped into
    /// [0, 360): the number to print. A heading or bearing of 359.9996° is in [0, 360) but
    /// reads "360.000" with three decimals; rounding first, then wrapping, never does.
    /// Inlinable: a printed heading's decimals are a constant there, and its scaling folds.
    @inlinable
    public static func rounded360(_ degrees: Double, decimals: Int) -> Double {
        let unit = ExactDecimal.powerOfTen(decimals)
        let scaled = normalized360(degrees) * unit
        let rounded = (scaled < ExactDecimal.wholeLimit ? Double(ExactDecimal.wholeHalfAwayFromZero(scaled))
                                                        : scaled.rounded(.toNearestOrAwayFromZero)) / unit
        return rounded >= 360 ? 0 : rounded + 0
    }

    /// `radians` wrapped into [−π, π]: `remainder(radians, 2π)`, the same bits.
    /// Most angles wrapped are a difference of two headings, within a turn
    /// either way; there the result is the angle itself or the angle less a
    /// turn, which is exact (Sterbenz's lemma), and the library call is not needed.
    @inlinable
    public static func wrapped(radians: Double) -> Double {
        let turn = 2 * Double.pi, magnitude = abs(radians)
        if magnitude <= Double.pi { return radians }
        if magnitude < turn { return radians > 0 ? radians - turn : radians + turn }
        return remainder(radians, turn)
    }

    /// `degrees` wrapped into [-180, 180).
    @inlinable
    public static func normalized180(_ degrees: Double) -> Double {
        let d = normalized360(degrees + 180) - 180
        return d
    }

    /// Signed shortest difference `to - from` in degrees, in [-180, 180).
    /// Wrap-around safe: the difference from 359° to 1° is +2°.
    @inlinable
    public static func difference(from: Double, to: Double) -> Double {
        let d = to - from
        // Headings are already in [0, 360): one conditional add avoids fmod.
        if d >= -180, d < 180 { return d }
        if d >= 180, d < 540 { return d - 360 }
        if d < -180, d >= -540 { return d + 360 }
        return normalized180(d)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// sin of an angle in degrees.
@inlinable
func sine(degrees: Double) -> Double { sin(degrees * Angle.radiansPerDegree) }

/// asin in degrees, clamped to its domain.
@inlinable
func asinDegrees(_ s: Double) -> Double { asin(max(-1, min(1, s))) * Angle.degreesPerRadian }
