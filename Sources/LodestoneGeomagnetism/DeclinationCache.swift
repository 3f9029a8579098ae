#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Declination for a moving board, evaluated only when it can have changed.
///
/// The field changes by a few hundredths of a degree per kilometre and per
/// year, so the model is re-evaluated only after the position moved more
/// than ``Settings/distance`` or the date advanced more than
/// ``Settings/interval``. Everything in between is a comparison.
public struct DeclinationCache: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Re-evaluate after moving this far, metres.
        public var distance: Double
        /// Re-evaluate after this much time, seconds.
        public var interval: Double

        public init(distance: Double = 1000, interval: Double = 3600) {
            self.distance = distance
            self.interval = interval
        }
    }

    public let model: GeomagneticModel
    public let allowExtrapolation: Bool
    public let settings: Settings
    /// The elements of the last evaluation.
    public private(set) var elements: GeomagneticElements?
    /// How many times the model was evaluated (for tests and diagnostics).
    public private(set) var evaluations = 0
    private var evaluatedAt: (latitude: Double, longitude: Double, height: Double, unixTime: Double)?

    public init(model: GeomagneticModel = .wmm2025, allowExtrapolation: Bool = false, settings: Settings = Settings()) {
        self.model = model
        self.allowExtrapolation = allowExtrapolation
        self.settings = settings
    }

    /// Declination at a position (degrees, height above the ellipsoid in metres) and Unix time.
    public mutating func declination(latitude: Double, longitude: Double, height: Double,
                                     unixTime: Double) throws(GeomagneticError) -> Declination {
        if let e = elements, let at = evaluatedAt, abs(unixTime - at.unixTime) <= settings.interval,
           (latitude == at.latitude && longitude == at.longitude && height == at.height)
           || (Self.distance(at.latitude, at.longitude, latitude, longitude) <= settings.distance
               && abs(height - at.height) <= settings.distance) {
            return e.declinationValue
        }
        let e = try model.elements(latitude: latitude, longitude: longitude, height: height / 1000,
                                   decimalYear: DecimalYear.from(unixTime: unixTime),
                                   allowExtrapolation: allowExtrapolation)
        elements = e
        evaluatedAt = (latitude, longitude, height, unixTime)
        evaluations += 1
        return e.declinationValue
    }

    /// Great-circle distance in metres on a mean-radius sphere: ample for a 1 km threshold.
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Angle.radiansPerDegree
        let dLat = (lat2 - lat1) * r, dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
    }
}

extension GeomagneticElements {
    /// The declination as the pipeline uses it: unreliable in the blackout zone.
    public var declinationValue: Declination {
        Declination(degrees: declination, uncertainty: declinationUncertainty, isReliable: isTrueHeadingReliable)
    }
}
