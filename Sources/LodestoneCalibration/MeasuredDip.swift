#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// The magnetic dip a calibrated magnetometer and an accelerometer see together.
///
/// Dip (inclination) is the angle of the field below the horizontal, positive
/// down. With the accelerometer's specific force as "up" it is
/// `asin(−B̂ · â)` for each sample. The median keeps samples taken while the
/// device was being turned (linear acceleration tilts "up") from pulling it.
/// It is a property of the place (the model's inclination) only if the
/// calibration is right, so a saved profile keeps it as a reference.
public enum MeasuredDip {
    /// Median dip in degrees over pairs whose vectors are both non-zero and
    /// finite, or nil when there are none. `fields` are corrected readings.
    public static func median(fields: [Vector3], accelerations: [Vector3]) -> Double? {
        var dips: [Double] = []
        dips.reserveCapacity(min(fields.count, accelerations.count))
        for (b, a) in zip(fields, accelerations) {
            let bl = b.length, al = a.length
            guard bl > 0, al > 0, bl.isFinite, al.isFinite else { continue }
            let s = max(-1, min(1, -b.dot(a) / (bl * al)))
            dips.append(asin(s) * Angle.degreesPerRadian)
        }
        guard !dips.isEmpty else { return nil }
        dips.sort()
        let n = dips.count
        return n % 2 == 1 ? dips[n / 2] : (dips[n / 2 - 1] + dips[n / 2]) / 2
    }
}
