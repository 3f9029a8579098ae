import LodestoneLocation
import LodestoneNetwork
import LodestonePosition

/// Where the board's position comes from, for true heading, steering, speed aiding
/// and the location half (position updates, regions, routes).
public enum PositionSetting: Hashable, Sendable {
    /// No position: `trueHeading` stays null.
    case none
    /// A fixed position: degrees, and metres above the WGS 84 ellipsoid.
    case fixed(latitude: Double, longitude: Double, height: Double)
    /// Fixes from gpsd, reconnecting with back-off.
    case gpsd(Endpoint)
    /// A recorded NMEA log or GPX track played back as if live (tests, demos).
    case replay(PositionReplay)
    /// Fixes from a source the host supplies (``HeadingSession/positionUpdated(_:)``): a
    /// ``PositionSource`` of its own. `name` is for messages.
    case external(name: String)

    public static let defaultGPSD = Endpoint(host: "localhost", port: 2947)

    /// Whether fixes arrive over time (and so can age), rather than being given once.
    public var isLive: Bool {
        switch self {
        case .gpsd, .replay, .external: return true
        case .none, .fixed: return false
        }
    }

    /// For messages: `gpsd at localhost:2947`, `the configured position`.
    public var sourceName: String {
        switch self {
        case .none: return "no position"
        case .fixed: return "the configured position"
        case .gpsd(let e): return "gpsd at \(e)"
        case .replay(let r): return "the position log \(r.path)"
        case .external(let name): return name
        }
    }

    /// The source that delivers this setting's fixes to a loop that polls (gpsd's client,
    /// a replay), or nil: no position, a fixed one (the session knows it already), or the
    /// host's own. Throws when a position log cannot be read.
    public func makeSource() throws(SessionError) -> (any PositionSource)? {
        switch self {
        case .gpsd(let e): return GPSDPositionSource(endpoint: e)
        case .replay(let r): return try r.makeSource()
        case .none, .fixed, .external: return nil
        }
    }

    /// The source of fixes for the location half: as ``makeSource()``, and for a fixed
    /// position a source that gives it once a second, stamped from `wallClock` (Unix seconds).
    public func makeLocationSource(wallClock: Double) throws(SessionError) -> (any PositionSource)? {
        guard case let .fixed(lat, lon, h) = self else { return try makeSource() }
        return FixedPositionSource(Location(latitude: lat, longitude: lon, ellipsoidalAltitude: h, timestamp: wallClock))
    }
}

/// A recorded track replayed as the position source.
public struct PositionReplay: Hashable, Sendable {
    /// An NMEA 0183 log or a GPX file.
    public var path: String
    /// Recorded seconds per second (default 1: real time); nil gives every fix at once.
    public var speed: Double?
    /// Start again after the end (times shifted forward each lap).
    public var loop: Bool

    public init(path: String, speed: Double? = 1, loop: Bool = false) {
        self.path = path
        self.speed = speed
        self.loop = loop
    }

    /// Reads the log; the lines it skipped are told as messages with the first poll.
    public func makeSource() throws(SessionError) -> ReplayPositionSource {
        let (fixes, notes) = try PositionLog.load(path)
        return ReplayPositionSource(fixes: fixes, speed: speed, loop: loop, name: "the position log \(path)", notes: notes)
    }
}
