import LodestoneSteering

/// One position fix, as `CLLocation` carries it.
///
/// Sources (gpsd, NMEA and GPX replay, a fixed position) fill in what they
/// know and leave the rest nil; nil means "not reported", where Core Location
/// uses negative values. The coordinates are plain numbers, not a validated
/// ``GeoCoordinate``, because a fix arrives from outside: ``LocationFilter``
/// is the gate that refuses NaN, out-of-range values and implausible jumps
/// with an event naming each, so one bad fix never reaches a client or the
/// filter's own state.
public struct Location: Sendable, Equatable {
    /// Geodetic latitude (WGS 84), degrees, north positive.
    public var latitude: Double
    /// Longitude (WGS 84), degrees, east positive.
    public var longitude: Double
    /// Metres above mean sea level (the geoid), as GPX `ele` and NMEA GGA give it.
    public var altitude: Double?
    /// Metres above the WGS 84 ellipsoid (gpsd `altHAE`; GGA altitude plus geoid separation).
    public var ellipsoidalAltitude: Double?
    /// Radius of uncertainty of the position, metres (Core Location: about 68 %).
    public var horizontalAccuracy: Double?
    /// Uncertainty of the altitudes, metres.
    public var verticalAccuracy: Double?
    /// Ground speed, m/s.
    public var speed: Double?
    public var speedAccuracy: Double?
    /// Course over ground, degrees clockwise from true north.
    public var course: Double?
    /// Uncertainty of `course`, degrees.
    public var courseAccuracy: Double?
    /// Time of the fix (the receiver's, not the arrival's), Unix seconds UTC.
    public var timestamp: Double

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, ellipsoidalAltitude: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speed: Double? = nil, speedAccuracy: Double? = nil,
                course: Double? = nil, courseAccuracy: Double? = nil, timestamp: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.ellipsoidalAltitude = ellipsoidalAltitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.timestamp = timestamp
    }

    /// The position as a validated coordinate; nil when latitude or longitude is
    /// not finite or out of range (|latitude| > 90°, |longitude| > 180°).
    public var coordinate: GeoCoordinate? {
        guard abs(longitude) <= 180 else { return nil }
        return try? GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// Geodesic distance to `other` on WGS 84, metres; nil when either position is invalid.
    public func distance(to other: Location) -> Double? {
        guard let a = coordinate, let b = other.coordinate else { return nil }
        return Geodesic.wgs84.inverse(from: a, to: b).distance
    }
}
