import LodestoneLocation

/// What a position source reports: fixes, the loss of the fix, and the state
/// of its link (a gpsd that cannot be reached).
public enum PositionUpdate: Equatable, Sendable {
    case fix(Location)
    /// The receiver says it has no fix (gpsd: a TPV with mode 0 or 1).
    case fixLost
    /// The link to the source changed: nil once it works, else what is wrong.
    case link(problem: String?)
    /// Something the source said that a person should read (a gpsd ERROR).
    case message(String)
}

/// Where positions come from: gpsd, a fixed position, or (later) a replayed
/// track. Polled without blocking, so that a sample loop, the service's event
/// loop or a test can drive it at its own pace.
public protocol PositionSource {
    /// For messages: `gpsd at localhost:2947`, `the configured position`.
    var name: String { get }
    /// The updates since the last call, without blocking; `now` is monotonic seconds.
    mutating func poll(now: Double) -> [PositionUpdate]
    /// Stops: closes connections. The source is not used afterwards.
    mutating func close()
}

/// A receiver that stands still: the same fix once every `interval` seconds,
/// as a GNSS receiver reports. For tests and demos that need a live source.
public struct FixedPositionSource: PositionSource {
    public let fix: Location
    public let interval: Double
    private var next = -Double.infinity

    public init(_ fix: Location, interval: Double = 1) {
        self.fix = fix
        self.interval = interval
    }

    public var name: String { "a fixed position source" }

    public mutating func poll(now: Double) -> [PositionUpdate] {
        guard now >= next else { return [] }
        next = now + interval
        return [.fix(fix)]
    }

    public mutating func close() {}
}
