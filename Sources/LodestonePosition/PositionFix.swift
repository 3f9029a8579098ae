/// One position fix from a receiver, with everything gpsd's TPV report can
/// give (gpsd_json(5)), so that true heading, speed aiding and location
/// clients all read the same value.
///
/// Accuracies are gpsd's estimates as it reports them, in metres (degrees
/// for the track, seconds for the time); nil where the receiver gives none.
public struct PositionFix: Hashable, Sendable {
    public enum Mode: Int, Hashable, Sendable {
        /// Latitude and longitude only.
        case twoDimensional = 2
        /// Latitude, longitude and altitude.
        case threeDimensional = 3
    }

    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…360.
    public var longitude: Double
    /// Metres above the WGS 84 ellipsoid (gpsd's `altHAE`); what the magnetic model takes.
    public var altitude: Double?
    /// Metres above mean sea level (`altMSL`, or `alt` from gpsd before 3.20).
    public var altitudeMSL: Double?
    /// Horizontal position error, metres (`eph`, else the larger of `epx` and `epy`).
    public var horizontalAccuracy: Double?
    /// Vertical error, metres (`epv`).
    public var verticalAccuracy: Double?
    /// Ground speed, m/s.
    public var speed: Double?
    /// Speed error, m/s (`eps`).
    public var speedAccuracy: Double?
    /// Course over ground, degrees clockwise from true north, [0, 360).
    public var track: Double?
    /// Course error, degrees (`epd`).
    public var trackAccuracy: Double?
    /// Climb rate, m/s (positive up).
    public var climb: Double?
    /// Climb-rate error, m/s (`epc`).
    public var climbAccuracy: Double?
    /// Unix seconds of the fix (the receiver's time).
    public var time: Double?
    /// Time error, seconds (`ept`).
    public var timeAccuracy: Double?
    public var mode: Mode

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, altitudeMSL: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, speed: Double? = nil,
                speedAccuracy: Double? = nil, track: Double? = nil, trackAccuracy: Double? = nil,
                climb: Double? = nil, climbAccuracy: Double? = nil, time: Double? = nil, timeAccuracy: Double? = nil,
                mode: Mode = .threeDimensional) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.altitudeMSL = altitudeMSL
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.track = track
        self.trackAccuracy = trackAccuracy
        self.climb = climb
        self.climbAccuracy = climbAccuracy
        self.time = time
        self.timeAccuracy = timeAccuracy
        self.mode = mode
    }

    /// The height to give the magnetic model: above the ellipsoid when known, else
    /// above sea level (at most ~100 m off: harmless for declination), else 0.
    public var modelHeight: Double { altitude ?? altitudeMSL ?? 0 }
}
