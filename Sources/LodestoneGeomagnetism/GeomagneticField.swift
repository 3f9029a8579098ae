import LodestoneCore

/// The Earth's field at a place and time, in the spirit of Android's
/// `GeomagneticField(latitude, longitude, altitude, timeMillis)`: the few
/// numbers a heading service needs, in Lodestone's interface units.
///
/// Units: degrees for angles, **µT** for the field (like every Lodestone
/// interface and the magnetometer samples it is compared with; Android uses
/// nT). The full NOAA result, in nT, is in `elements`.
public struct GeomagneticField: Sendable, Hashable {
    /// Everything the model gives, in NOAA's units (nT, degrees).
    public let elements: GeomagneticElements

    /// - Parameters:
    ///   - latitude: geodetic latitude, degrees (WGS 84).
    ///   - longitude: geodetic longitude, degrees east.
    ///   - altitude: height above the WGS 84 ellipsoid in **metres** (as
    ///     Android and GNSS receivers give it; not above mean sea level).
    ///   - unixTime: seconds since 1970-01-01 00:00 UTC.
    ///   - model: `.wmm2025` (default) or `.wmmhr2025`.
    ///   - allowExtrapolation: outside the model's dates or heights, give a
    ///     result marked `isExtrapolated` instead of throwing.
    public init(latitude: Double, longitude: Double, altitude: Double, unixTime: Double,
                model: GeomagneticModel = .wmm2025, allowExtrapolation: Bool = false) throws(GeomagneticError) {
        elements = try model.elements(latitude: latitude, longitude: longitude, height: altitude / 1000,
                                      decimalYear: DecimalYear.from(unixTime: unixTime),
                                      allowExtrapolation: allowExtrapolation)
    }

    /// Declination, degrees east of true north: true heading = magnetic heading + declination.
    public var declination: Double { elements.declination }
    /// Inclination (dip), degrees, positive when the field points down.
    public var inclination: Double { elements.inclination }
    /// Total field strength, µT.
    public var fieldStrength: Double { elements.totalIntensity / 1000 }
    /// Horizontal field strength, µT.
    public var horizontalStrength: Double { elements.horizontalIntensity / 1000 }
    /// The field vector in µT: x north, y east, z down (geodetic frame).
    public var northEastDown: Vector3 {
        Vector3(elements.north / 1000, elements.east / 1000, elements.down / 1000)
    }
    /// One-sigma declination uncertainty, degrees (NOAA's error model).
    public var declinationUncertainty: Double { elements.declinationUncertainty }
    /// False in the blackout zone near a magnetic pole, where true heading is not to be trusted.
    public var isTrueHeadingReliable: Bool { elements.isTrueHeadingReliable }
    /// True when the date or height was outside the model's validity.
    public var isExtrapolated: Bool { elements.isExtrapolated }
}
