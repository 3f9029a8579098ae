import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// A ``HeadingSession``'s output as NDJSON lines, the same way for `replay`,
/// `watch` and `record`: the session's events in the order they arose, then the
/// heading. Sharing it is what makes `replay` of a recording print exactly what
/// `record` printed.
struct HeadingLines {
    var session: HeadingSession
    /// Unix seconds of sample time 0 when the source knows it: adds `time` to each heading.
    private(set) var wallClockStart: Double?
    /// A position is in use: each heading has a `declination` (null where unknown).
    private let withDeclination: Bool

    init(session: HeadingSession) {
        self.session = session
        withDeclination = session.settings.trueNorth.position != .none
    }

    /// Sets the wall clock of sample time 0 (nil when unknown); call before the first sample.
    mutating func start(wallClockStart: Double?) {
        self.wallClockStart = wallClockStart
        session.start(wallClockStart: wallClockStart)
    }

    /// Appends the lines for one sample to `json`; returns the heading delivered, if any.
    mutating func append(_ sample: SensorSample, to json: JSONLineBuilder) -> Heading? {
        let heading = session.process(sample)
        if session.hasEvents {
            for e in session.takeEvents() { json.appendEvent(e) }
        }
        if let heading { json.appendHeading(heading, wallClockStart: wallClockStart, withDeclination: withDeclination) }
        return heading
    }
}

extension HeadingSession {
    /// The session for `source`, with the profiles chosen for its devices, refusing
    /// settings that would have no effect on it; says on standard error what it applies.
    static func open(_ settings: Settings, for source: any SessionSource) throws -> HeadingSession {
        try settings.check(hasGyroscope: source.hasGyroscope)
        let session = try HeadingSession(settings: settings, devices: source.calibrationDevices,
                                         saving: .immediately(CalibrateCommand.writeOptions()))
        for note in session.notes { Console.note("lodestone: " + note) }
        return session
    }
}
