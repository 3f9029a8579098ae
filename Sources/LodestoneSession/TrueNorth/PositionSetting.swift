import LodestoneNetwork
import LodestonePosition

/// Where the board's position comes from, for true heading, steering and speed aiding.
public enum PositionSetting: Hashable, Sendable {
    /// No position: `trueHeading` stays null.
    case none
    /// A fixed position: degrees, and metres above the WGS 84 ellipsoid.
    case fixed(latitude: Double, longitude: Double, height: Double)
    /// Fixes from gpsd, reconnecting with back-off.
    case gpsd(Endpoint)
    /// Fixes from a source the host supplies (``HeadingSession/positionUpdated(_:)``): a
    /// ``PositionSource`` of its own, or a replayed track. `name` is for messages.
    case external(name: String)

    public static let defaultGPSD = Endpoint(host: "localhost", port: 2947)

    /// Whether fixes arrive over time (and so can age), rather than being given once.
    public var isLive: Bool {
        switch self {
        case .gpsd, .external: return true
        case .none, .fixed: return false
        }
    }

    /// For messages: `gpsd at localhost:2947`, `the configured position`.
    public var sourceName: String {
        switch self {
        case .none: return "no position"
        case .fixed: return "the configured position"
        case .gpsd(let e): return "gpsd at \(e)"
        case .external(let name): return name
        }
    }

    /// The source that delivers this setting's fixes to a loop that polls: gpsd's client,
    /// or nil (no position, a fixed one the session knows already, or the host's own).
    public func makeSource() -> (any PositionSource)? {
        if case .gpsd(let e) = self { return GPSDPositionSource(endpoint: e) }
        return nil
    }
}
