import Foundation
import LodestoneCore
import LodestoneIIO
import LodestoneLogs

/// The live loop shared by `watch` and `record`: IIO source → pipeline → NDJSON
/// on standard output, one line written (and so flushed) at a time.
///
/// Headings use `replay`'s line format plus `time`, the wall clock of the
/// sample. Objects with an `event` key carry everything else:
/// `sourceFault` (with `reason`; the source is retried with back-off from 0.1 s
/// to 5 s), `sourceResumed`, and `sensorHealth` (with `flags`, empty when all is
/// well again) when a sensor gets stuck or saturated.
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
    /// `each` sees every sample, with its raw counts and the `start` text of time 0,
    /// before the pipeline does.
    func run(source: IIOSensorSource, pipeline initial: HeadingPipeline, stop: StopSignals,
             each: (SensorSample, IIORawCounts, String) throws -> Void = { _, _, _ in }) throws -> ExitCode {
        var pipeline = initial
        let output = OutputStream(fd: 1)
        let json = JSONLineBuilder(capacity: 4096)
        var printing = printsHeadings
        var printed = 0
        var backoff = 0.1
        var faultReason: String?
        var health = HealthState()
        var startText: String?
        var start: Double?

        func emit() -> Bool {
            defer { json.removeAll() }
            guard printing else { return true }
            output.write(json.bytes)
            if output.failed {
                printing = false
                return !stopsWhenOutputCloses
            }
            return true
        }

        while stop.received == nil {
            let next: SensorSample?
            do {
                next = try source.nextSample()
            } catch let error where error.isTransient {
                if faultReason != error.description {
                    faultReason = error.description
                    event(json, "sourceFault") { $0.string("reason", error.description) }
                    guard emit() else { break }
                }
                guard stop.sleep(backoff) else { break }
                backoff = min(backoff * 2, 5)
                continue
            } catch {
                throw CommandFailure(error.exitCode, error.description)
            }
            guard let sample = next else { break } // cancelled by a stop signal
            if faultReason != nil {
                faultReason = nil
                backoff = 0.1
                event(json, "sourceResumed") { _ in }
                guard emit() else { break }
            }
            if startText == nil, let wall = source.startWallClock {
                // The log stores this text; using its parsed value here makes `replay` print the same `time`.
                let text = WallClockTime.iso8601(unixSeconds: wall, fractionDigits: 6)
                startText = text
                start = WallClockTime.parse(text)
            }
            if let duration, sample.time >= duration { break }
            try each(sample, source.latestRaw ?? IIORawCounts(magnetometer: .zero, accelerometer: .zero, gyroscope: nil), startText ?? "")
            if health.changed(source.diagnostics) {
                let flags = source.diagnostics.flags
                event(json, "sensorHealth") { $0.raw("flags", Self.jsonArray(flags)) }
                guard emit() else { break }
            }
            guard let heading = pipeline.process(sample) else { continue }
            json.appendHeading(heading, wallClockStart: start)
            guard emit() else { break }
            printed += 1
            if let headingLimit, printed >= headingLimit { break }
        }
        return stop.exitCode
    }

    private func event(_ json: JSONLineBuilder, _ name: String, _ body: (JSONLineBuilder) -> Void) {
        json.beginObject()
        json.string("event", name)
        body(json)
        json.string("time", WallClockTime.iso8601(unixSeconds: Date().timeIntervalSince1970))
        json.endObject()
    }

    static func jsonArray(_ strings: [String]) -> String {
        let data = (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Notices when a sensor becomes (or stops being) stuck or saturated, without
/// building any text per sample.
private struct HealthState {
    private var last: UInt8 = 0

    mutating func changed(_ d: IIOSourceDiagnostics) -> Bool {
        func bits(_ h: IIOSensorHealth) -> UInt8 { (h.isStuck ? 1 : 0) | (h.isSaturated ? 2 : 0) }
        let bits = bits(d.magnetometer) | bits(d.accelerometer) << 2 | (d.gyroscope.map(bits) ?? 0) << 4
        defer { last = bits }
        return bits != last
    }
}
