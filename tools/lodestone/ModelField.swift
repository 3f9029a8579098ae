#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneSession

/// The Earth's field a magnetometer should see at the given place and date,
/// from the bundled model: what a calibration is scaled to and compared with.
struct ModelField {
    /// Total intensity F, µT.
    var totalIntensity: Double
    /// Inclination (dip), degrees, positive down.
    var inclination: Double
    var modelName: String
    var decimalYear: Double
    var isExtrapolated: Bool

    /// Nil without a position. `unixTime` is the date used when --date/--year
    /// is not given (the log's start, or now).
    init?(_ settings: TrueNorth.Settings, unixTime: Double) throws {
        guard let (lat, lon, height) = settings.fixedPosition else { return nil }
        let year = DecimalYear.from(unixTime: settings.modelDate ?? unixTime)
        let model = settings.model.model
        let e: GeomagneticElements
        do {
            e = try model.elements(latitude: lat, longitude: lon, height: height / 1000, decimalYear: year,
                                   allowExtrapolation: settings.allowExtrapolation)
        } catch {
            throw UsageError("\(error); the date comes from \(settings.modelDate == nil ? "the log's start time or today" : "--date/--year") (add --allow-extrapolation to accept a degraded model)")
        }
        totalIntensity = e.totalIntensity / 1000
        inclination = e.inclination
        modelName = model.name
        decimalYear = year
        isExtrapolated = e.isExtrapolated
    }

    /// Normal gravity on the WGS 84 ellipsoid (Somigliana's formula with the
    /// WGS 84 constants, NIMA TR8350.2 §4.2) less the free-air gradient
    /// 3.086 × 10⁻⁶ s⁻² per metre of height, in m/s².
    static func normalGravity(latitude: Double, height: Double) -> Double {
        let s = sin(latitude * Angle.radiansPerDegree)
        let s2 = s * s
        let g0 = 9.7803253359 * (1 + 0.00193185265241 * s2) / (1 - 0.00669437999013 * s2).squareRoot()
        return g0 - 3.086e-6 * height
    }
}
