/// NOAA's published error model of a WMM release: one-sigma global
/// uncertainties of each element (commission plus omission error, including
/// crustal fields the model does not hold).
///
/// Declination's uncertainty grows as H falls, because the same absolute
/// vector error turns the horizontal direction further when H is small:
/// σ_D = √(offset² + (coefficient / H)²) degrees, H in nT.
public struct GeomagneticErrorModel: Sendable, Hashable {
    /// One-sigma uncertainties in nT.
    public var north: Double
    public var east: Double
    public var down: Double
    public var horizontalIntensity: Double
    public var totalIntensity: Double
    /// One-sigma uncertainty of inclination, degrees.
    public var inclination: Double
    /// Declination term independent of H, degrees.
    public var declinationOffset: Double
    /// Declination term that scales with 1/H, degree·nT.
    public var declinationCoefficient: Double

    public init(north: Double, east: Double, down: Double, horizontalIntensity: Double,
                totalIntensity: Double, inclination: Double,
                declinationOffset: Double, declinationCoefficient: Double) {
        self.north = north
        self.east = east
        self.down = down
        self.horizontalIntensity = horizontalIntensity
        self.totalIntensity = totalIntensity
        self.inclination = inclination
        self.declinationOffset = declinationOffset
        self.declinationCoefficient = declinationCoefficient
    }

    /// One-sigma declination uncertainty in degrees at horizontal intensity
    /// `h` (nT), capped at 180° (at H = 0 the direction is arbitrary).
    public func declinationUncertainty(horizontalIntensity h: Double) -> Double {
        let variable = declinationCoefficient / h
        return min(180, (declinationOffset * declinationOffset + variable * variable).squareRoot())
    }

    /// WMM2025 (NOAA NCEI, WMM2025 technical report, error model).
    public static let wmm2025 = GeomagneticErrorModel(
        north: 137, east: 89, down: 141, horizontalIntensity: 133, totalIntensity: 138,
        inclination: 0.20, declinationOffset: 0.26, declinationCoefficient: 5417)

    /// WMMHR2025 (NOAA NCEI, WMMHR2025 error model).
    public static let wmmhr2025 = GeomagneticErrorModel(
        north: 135, east: 85, down: 134, horizontalIntensity: 130, totalIntensity: 134,
        inclination: 0.19, declinationOffset: 0.25, declinationCoefficient: 5205)
}
