import LodestoneLocation

/// Recorded fixes (an NMEA log, a GPX track) played back as a live source, for
/// tests and demos: each fix is given when as much time has passed since the
/// first poll as separated it from the first fix, divided by `speed`.
///
/// The fixes keep their recorded times, so a consumer sees the recording as it
/// was made. With `loop`, the recording starts again after its end, its times
/// shifted by its duration plus one mean fix interval, so that time only moves
/// forward (a consumer that refuses repeated times takes every lap).
/// Without `loop` the source ends (``hasEnded``) after its last fix.
public struct ReplayPositionSource: PositionSource {
    public let fixes: [Location]
    /// Recorded seconds per second; nil gives everything at the first poll (one lap with `loop`).
    public let speed: Double?
    public let loop: Bool
    public let name: String
    /// Messages for people, given with the first poll (lines of the log that were skipped).
    private var notes: [String]
    private var start: Double?
    private var next = 0
    /// Added to the recorded times in the current lap.
    private var shift = 0.0
    private let lapLength: Double

    /// `fixes` in the order recorded, their times increasing.
    public init(fixes: [Location], speed: Double? = 1, loop: Bool = false, name: String = "a replayed track", notes: [String] = []) {
        self.fixes = fixes
        self.speed = speed
        self.loop = loop
        self.name = name
        self.notes = notes
        let duration = (fixes.last?.timestamp ?? 0) - (fixes.first?.timestamp ?? 0)
        lapLength = duration + (fixes.count > 1 ? duration / Double(fixes.count - 1) : 1)
    }

    public var hasEnded: Bool { !loop && next >= fixes.count }

    public mutating func poll(now: Double) -> [PositionUpdate] {
        var updates: [PositionUpdate] = []
        if start == nil {
            start = now
            updates = [.link(problem: nil)] + notes.map { .message($0) }
            notes = []
        }
        guard let first = fixes.first?.timestamp, let start else { return updates }
        // At most one lap per poll: a late poll catches up over the next ones.
        var given = 0
        while given < fixes.count {
            if next == fixes.count {
                guard loop else { break }
                next = 0
                shift += lapLength
            }
            let due = fixes[next].timestamp + shift - first
            if let speed, due / speed > now - start { break }
            var fix = fixes[next]
            fix.timestamp += shift
            updates.append(.fix(fix))
            next += 1
            given += 1
        }
        return updates
    }

    public mutating func close() {}
}
