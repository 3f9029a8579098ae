import LodestoneLocation
import LodestonePosition

/// Reads a position source for a loop of its own (`lodestone locate`,
/// ``LocationManager``): polls it ten times a second, without blocking, and puts
/// what arrives through a ``LocationSession``. The serve event loop polls its
/// sources itself and uses the session directly.
public struct LocationRunner {
    public var session: LocationSession
    public private(set) var source: any PositionSource
    private let clock: any SessionClock
    private var nextPoll = -Double.infinity
    private var reportedEnd = false

    /// A runner for `position`'s source (gpsd, a replayed log, a fixed position); throws when
    /// there is none (`.none`, `.external`) or a log cannot be read.
    public init(position: PositionSetting, session: LocationSession, clock: any SessionClock = SystemClock()) throws(SessionError) {
        guard let source = try position.makeLocationSource(wallClock: clock.wall()) else {
            throw SessionError(.usage, "no position source: give gpsd, a position log or a fixed position")
        }
        self.init(source: source, session: session, clock: clock)
    }

    public init(source: any PositionSource, session: LocationSession, clock: any SessionClock = SystemClock()) {
        self.source = source
        self.session = session
        self.clock = clock
    }

    /// Waits for the next poll and returns what arrived (possibly nothing); nil once the
    /// source ended (after a last `sourceEnded` event) or the clock's stop flag was set.
    public mutating func next() -> [LocationSession.Output]? {
        if reportedEnd { return nil }
        let wait = nextPoll - clock.monotonic()
        if wait > 0, !clock.sleep(wait) { return nil }
        let now = clock.monotonic()
        nextPoll = max(nextPoll + PositionFeed.interval, now)
        var outputs = source.poll(now: now).flatMap { session.received($0) }
        if source.hasEnded {
            reportedEnd = true
            outputs.append(session.ended(source.name))
        }
        return outputs
    }

    public mutating func close() {
        source.close()
    }
}
