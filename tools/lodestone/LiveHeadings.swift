import LodestoneCommandLine
import LodestoneCore
import LodestoneIIO
import LodestoneLogs
import LodestoneSession

/// The live loop shared by `watch` and `record`: IIO source → ``SourceRunner`` →
/// ``HeadingLines`` → NDJSON on standard output, one line written (and so flushed)
/// at a time.
///
/// Headings and session events are exactly what `replay` prints for the same
/// samples (headings carry `time`, the wall clock of the sample). The runner adds
/// the source's own events, with `time` the wall clock: `sourceFault` (the source
/// is retried with back-off from 0.1 s to 5 s), `sourceResumed`, and `sensorHealth`
/// with `flags` (empty when all is well again) when a sensor gets stuck or saturated.
/// With gpsd, its fixes reach the session between samples (true heading, speed aiding).
struct LiveHeadings {
    /// Stop after this many headings (`watch --count`).
    var headingLimit: Int?
    /// Stop before the first sample at or after this time, in seconds (`record --duration`).
    var duration: Double?
    /// `watch` ends when its reader goes away; `record` keeps recording.
    var stopsWhenOutputCloses = true
    /// False when standard output carries something else (`record -o -`).
    var printsHeadings = true

    /// Runs until a limit, a stop signal, or a fatal error (thrown as a ``CommandFailure``).
    /// `each` sees every sample, with the `start` text of time 0, before the session does.
    func run(source: IIOSessionSource, lines initial: HeadingLines, stop: StopSignals,
             each: (SensorSample, String) throws -> Void = { _, _ in }) throws -> ExitCode {
        var lines = initial
        var output = Output(printing: printsHeadings, stopsWhenClosed: stopsWhenOutputCloses)
        var runner = SourceRunner(source, clock: SystemClock(stop: stop.flag))
        var position = try PositionFeed(lines.session.settings.trueNorth.position)
        defer { position?.close() }
        var printed = 0
        var startText: String?
        loop: while stop.received == nil {
            switch runner.next() {
            case .event(let e):
                output.json.appendEvent(e, wallClock: WallClock.now())
                guard output.emit() else { break loop }
            case .sample(let sample):
                if startText == nil {
                    // The log stores this text; starting from its parsed value makes `replay` print the same `time`.
                    let text = WallClockTime.iso8601(unixSeconds: source.startWallClock ?? WallClock.now(), fractionDigits: 6)
                    startText = text
                    lines.start(wallClockStart: WallClockTime.parse(text))
                }
                if let duration, sample.time >= duration { break loop }
                for message in position?.deliver(to: &lines.session) ?? [] { Console.note("lodestone: " + message) }
                try each(lines.session.aided(sample), startText ?? "")
                let heading = lines.append(sample, to: output.json)
                guard output.emit() else { break loop }
                if heading != nil {
                    printed += 1
                    if let headingLimit, printed >= headingLimit { break loop }
                }
            case .ended, .interrupted:
                break loop // cancelled by a stop signal
            case .failed(let error):
                throw CommandFailure(error)
            }
        }
        return stop.exitCode
    }

    /// Standard output, written a line at a time.
    private struct Output {
        let stream = OutputStream(fd: 1)
        let json = JSONLineBuilder(capacity: 4096)
        var printing: Bool
        let stopsWhenClosed: Bool

        /// Writes what `json` holds; false when the run must end (the reader went away).
        mutating func emit() -> Bool {
            defer { json.removeAll() }
            guard printing, json.count > 0 else { return true }
            stream.write(json.bytes)
            if stream.failed {
                printing = false
                return !stopsWhenClosed
            }
            return true
        }
    }
}
