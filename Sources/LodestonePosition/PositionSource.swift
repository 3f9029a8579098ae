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

/// Where positions come from: gpsd, a fixed position, or a replayed NMEA log or
/// GPX track. Polled without blocking, so that a sample loop, the service's event
/// loop or a test can drive it at its own pace.
public protocol PositionSource {
    /// For messages: `gpsd at localhost:2947`, `the configured position`.
    var name: String { get }
    /// The updates since the last call, without blocking; `now` is monotonic seconds.
    mutating func poll(now: Double) -> [PositionUpdate]
    /// Stops: closes connections. The source is not used afterwards.
    mutating func close()
    /// Whether the source has nothing more to give (a replay without a loop at its end).
    var hasEnded: Bool { get }
}

extension PositionSource {
    /// Live sources never end by themselves.
    public var hasEnded: Bool { false }
}

/// A receiver that stands still: the same position once every `interval`
/// seconds, as a GNSS receiver reports, each fix stamped `interval` later than
/// the one before (starting at the given fix's time), so that a consumer that
/// refuses repeated times takes each one. For a board that does not move.
public struct FixedPositionSource: PositionSource {
    public let fix: Location
    public let interval: Double
    private var first: Double?
    private var next = -Double.infinity

    public init(_ fix: Location, interval: Double = 1) {
        self.fix = fix
        self.interval = interval
    }

    public var name: String { "the configured position" }

    public mutating func poll(now: Double) -> [PositionUpdate] {
        guard now >= next else { return [] }
        let start = first ?? now
        first = start
        var stamped = fix
        stamped.timestamp += now - start
        next = now + interval
        return [.fix(stamped)]
    }

    public mutating func close() {}
}
