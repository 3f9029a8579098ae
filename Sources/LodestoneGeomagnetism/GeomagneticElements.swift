#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The geomagnetic field at one place and time, as the WMM reports it:
/// the seven elements, grid variation, their yearly change, and how far to
/// trust them.
///
/// Units follow NOAA's tables (nT, degrees), so values compare directly with
/// NOAA's calculators and test values. X, Y, Z are geodetic north, east and
/// down (Z positive down); D and I are positive east and down.
public struct GeomagneticElements: Sendable, Hashable {
    /// The model that produced this result, e.g. "WMM2025".
    public var model: String
    /// Where and when: geodetic latitude and longitude (degrees, WGS 84),
    /// height above the WGS 84 ellipsoid (km), decimal year.
    public var latitude: Double
    public var longitude: Double
    public var height: Double
    public var decimalYear: Double

    /// X: northward component, nT.
    public var north: Double
    /// Y: eastward component, nT.
    public var east: Double
    /// Z: downward component, nT.
    public var down: Double
    /// H: horizontal intensity, nT.
    public var horizontalIntensity: Double
    /// F: total intensity, nT.
    public var totalIntensity: Double
    /// I: inclination (dip), degrees, positive down.
    public var inclination: Double
    /// D: declination, degrees east of true north, in (−180, 180].
    public var declination: Double
    /// GV: grid variation, degrees: declination referred to grid north of
    /// the polar stereographic grid. NOAA defines it only for |latitude| ≥ 55°;
    /// nil elsewhere.
    public var gridVariation: Double?
    /// Yearly rates of change (secular variation).
    public var yearlyChange: Rates

    /// True when the date or height lies outside the model's validity and the
    /// caller allowed extrapolation: the result is degraded, not an error.
    public var isExtrapolated: Bool
    /// One-sigma declination uncertainty from NOAA's error model, degrees.
    public var declinationUncertainty: Double

    /// The elements' yearly change: nT/yr for the intensities, degrees/yr for
    /// inclination and declination.
    public struct Rates: Sendable, Hashable {
        public var north: Double
        public var east: Double
        public var down: Double
        public var horizontalIntensity: Double
        public var totalIntensity: Double
        public var inclination: Double
        public var declination: Double
    }

    /// Blackout, caution or normal, from H.
    public var zone: MagneticPoleZone { MagneticPoleZone(horizontalIntensity: horizontalIntensity) }

    /// Whether declination, and so a true heading derived from a compass, can
    /// be trusted here: false in the blackout zone (H < 2000 nT), where NOAA
    /// says compass accuracy is highly degraded. The caution zone still counts
    /// as reliable; `declinationUncertainty` says how much less so.
    public var isTrueHeadingReliable: Bool { zone != .blackout }

    /// Derives every element from the field vector and its rate, with the
    /// formulas of the WMM technical report (section 1.2, eq. 19 and 20).
    init(model: String, latitude: Double, longitude: Double, height: Double, decimalYear: Double,
         field v: FieldVector, isExtrapolated: Bool, errorModel: GeomagneticErrorModel) {
        self.model = model
        self.latitude = latitude
        self.longitude = longitude
        self.height = height
        self.decimalYear = decimalYear
        self.isExtrapolated = isExtrapolated

        let degrees = 180 / Double.pi
        let h = (v.north * v.north + v.east * v.east).squareRoot()
        let f = (h * h + v.down * v.down).squareRoot()
        north = v.north
        east = v.east
        down = v.down
        horizontalIntensity = h
        totalIntensity = f
        declination = atan2(v.east, v.north) * degrees
        inclination = atan2(v.down, h) * degrees

        // Grid variation (report §1.2): D − λ in the Arctic, D + λ in the
        // Antarctic, wrapped into (−180, 180].
        if latitude >= 55 || latitude <= -55 {
            var gv = latitude > 0 ? declination - longitude : declination + longitude
            gv = gv.truncatingRemainder(dividingBy: 360)
            if gv > 180 { gv -= 360 } else if gv <= -180 { gv += 360 }
            gridVariation = gv
        } else {
            gridVariation = nil
        }

        let hRate = (v.north * v.northRate + v.east * v.eastRate) / h
        let fRate = (v.north * v.northRate + v.east * v.eastRate + v.down * v.downRate) / f
        yearlyChange = Rates(
            north: v.northRate,
            east: v.eastRate,
            down: v.downRate,
            horizontalIntensity: hRate,
            totalIntensity: fRate,
            inclination: (h * v.downRate - v.down * hRate) / (f * f) * degrees,
            declination: (v.north * v.eastRate - v.east * v.northRate) / (h * h) * degrees
        )
        declinationUncertainty = errorModel.declinationUncertainty(horizontalIntensity: h)
    }
}
