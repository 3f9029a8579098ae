import Foundation
import LodestoneCore
import LodestoneIIO
import LodestoneLogs

/// The live loop shared by `watch` and `record`: IIO source → ``HeadingStream`` →
/// NDJSON on standard output, one line written (and so flushed) at a time.
///
/// Headings and pipeline events are exactly what `replay` prints for the same
/// samples (headings carry `time`, the wall clock of the sample). The source adds
/// its own events, in the stream's style (`reason` a short code, `detail` a
/// sentence, `time` the wall clock): `sourceFault` (the source is retried with
/// back-off from 0.1 s to 5 s), `sourceResumed`, and `sensorHealth` with `flags`
/// (empty when all is well again) when a sensor gets stuck or saturated.
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
    func run(source: IIOSensorSource, stream initial: HeadingStream, stop: StopSignals,
             each: (SensorSample, IIORawCounts, String) throws -> Void = { _, _, _ in }) throws -> ExitCode {
        var stream = initial
        let output = OutputStream(fd: 1)
        let json = JSONLineBuilder(capacity: 4096)
        var printing = printsHeadings
        var printed = 0
        var backoff = 0.1
        var faultDetail: String?
        var health = HealthState()
        var startText: String?

        func emit() -> Bool {
            defer { json.removeAll() }
            guard printing, json.count > 0 else { return true }
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
                if faultDetail != error.description {
                    faultDetail = error.description
                    json.beginObject()
                    json.string("event", "sourceFault")
                    json.string("reason", error.reasonCode)
                    json.string("detail", error.description)
                    json.string("time", WallClockTime.iso8601(unixSeconds: WallClock.now()))
                    json.endObject()
                    guard emit() else { break }
                }
                guard stop.sleep(backoff) else { break }
                backoff = min(backoff * 2, 5)
                continue
            } catch {
                throw CommandFailure(error.exitCode, error.description)
            }
            guard let sample = next else { break } // cancelled by a stop signal
            if faultDetail != nil {
                faultDetail = nil
                backoff = 0.1
                json.beginObject()
                json.string("event", "sourceResumed")
                json.string("time", WallClockTime.iso8601(unixSeconds: WallClock.now()))
                json.endObject()
                guard emit() else { break }
            }
            if startText == nil {
                // The log stores this text; starting from its parsed value makes `replay` print the same `time`.
                let text = WallClockTime.iso8601(unixSeconds: source.startWallClock ?? WallClock.now(), fractionDigits: 6)
                startText = text
                stream.start(wallClockStart: WallClockTime.parse(text))
            }
            if let duration, sample.time >= duration { break }
            try each(sample, source.latestRaw ?? IIORawCounts(magnetometer: .zero, accelerometer: .zero, gyroscope: nil), startText ?? "")
            if health.changed(source.diagnostics) {
                json.beginObject()
                json.string("event", "sensorHealth")
                json.raw("flags", Self.jsonArray(source.diagnostics.flags))
                json.number("timestamp", sample.time, decimals: 6)
                json.string("time", WallClockTime.iso8601(unixSeconds: WallClock.now()))
                json.endObject()
                guard emit() else { break }
            }
            let heading = try stream.append(sample, to: json)
            guard emit() else { break }
            if heading != nil {
                printed += 1
                if let headingLimit, printed >= headingLimit { break }
            }
        }
        return stop.exitCode
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
