import LodestonePosition

/// A live position source polled from a sample loop (`watch`, `record`,
/// ``HeadingManager``): at most ten times a second it reads what the source has,
/// without blocking, and hands it to the session. Messages for people (a gpsd
/// ERROR) are returned for the host to show.
public struct PositionFeed {
    public private(set) var source: any PositionSource
    private let clock: any SessionClock
    private var nextPoll = -Double.infinity
    /// Seconds between polls: fixes come at 1–10 Hz; more often would only cost syscalls.
    public static let interval = 0.1

    public init(_ source: any PositionSource, clock: any SessionClock = SystemClock()) {
        self.source = source
        self.clock = clock
    }

    /// The feed of `settings`' live source, when it has one the loop must poll (gpsd, a
    /// replay); throws when a position log cannot be read.
    public init?(_ settings: PositionSetting, clock: any SessionClock = SystemClock()) throws(SessionError) {
        guard let source = try settings.makeSource() else { return nil }
        self.init(source, clock: clock)
    }

    /// Polls when due and gives the session what arrived; returns messages for people.
    public mutating func deliver(to session: inout HeadingSession) -> [String] {
        let now = clock.monotonic()
        guard now >= nextPoll else { return [] }
        nextPoll = now + Self.interval
        var messages: [String] = []
        for update in source.poll(now: now) {
            if case .message(let text) = update { messages.append(text) }
            session.positionUpdated(update)
        }
        return messages
    }

    public mutating func close() {
        source.close()
    }
}
