import LodestoneSteering

/// A circle on the ground to watch, as `CLCircularRegion`: a centre, a radius
/// and an identifier, plus which events to report and, optionally, a dwell time.
public struct CircularRegion: Sendable, Hashable {
    /// At most this many bytes of UTF-8 (identifiers compare as Swift strings, so
    /// canonically equivalent spellings are one identifier).
    public static let maximumIdentifierLength = 256

    public let identifier: String
    public let center: GeoCoordinate
    /// Metres, geodesic, > 0.
    public let radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Seconds inside without a break after which one `dwelled` event is reported;
    /// nil: none. (Core Location has no dwell; Android's geofences call it loitering.)
    public var dwellTime: Double?

    public init(identifier: String, center: GeoCoordinate, radius: Double,
                notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwellTime: Double? = nil) throws(RegionError) {
        guard !identifier.isEmpty else { throw .emptyIdentifier }
        guard identifier.utf8.count <= Self.maximumIdentifierLength else { throw .identifierTooLong(identifier) }
        guard !identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .identifierHasControlCharacters(identifier)
        }
        guard radius.isFinite, radius > 0 else {
            throw .valueOutOfRange(name: "radius", value: radius, allowed: "finite metres > 0")
        }
        if let dwellTime, !(dwellTime.isFinite && dwellTime > 0) {
            throw .valueOutOfRange(name: "dwellTime", value: dwellTime, allowed: "finite seconds > 0, or none")
        }
        self.identifier = identifier
        self.center = center
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.dwellTime = dwellTime
    }
}
