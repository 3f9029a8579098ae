import LodestoneSession

/// An event for protocol clients: `{"class":"EVENT","event":…,"reason":…,"detail":…}`.
/// The session's events (``HeadingEvent``) keep their names and reasons; the
/// service adds its own (`linesDropped`, `steerStopped`, `serviceStopping` …).
public struct ServiceEvent: Equatable, Sendable {
    public var name: String
    public var reason: String
    public var detail: String
    /// `start`/`end` for events that last (a magnetic disturbance).
    public var state: String?
    /// `sensorHealth`: the problems, empty when all is well again.
    public var flags: [String]?

    public init(_ name: String, reason: String, _ detail: String, state: String? = nil) {
        self.name = name
        self.reason = reason
        self.detail = detail
        self.state = state
    }

    public init(_ e: HeadingEvent) {
        self.init(e.name.rawValue, reason: e.reason.rawValue, e.detail, state: e.state?.rawValue)
        if e.name == .sensorHealth { flags = e.flags }
    }
}
