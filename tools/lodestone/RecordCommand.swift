import Foundation
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneIIO
import LodestoneLogs
import LodestoneSession

/// `lodestone record`: write a native log from the IIO sensors.
enum RecordCommand: Command {
    static let name = "record"
    static let summary = "Record the IIO sensors to a native log (SI values, raw counts, device metadata)."
    static let usage = "record -o FILE [--duration S] [options]"
    static let discussion = """
        Writes a native Lodestone log: per sample the time, acceleration (m/s²), field
        (µT) and angular rate (rad/s, when there is a gyroscope) in the body frame,
        then the raw counts as extra columns mag_raw_x … accel_raw_x … gyro_raw_x …
        The header records the wall clock of time 0 ("start"), the rate, the source
        and the devices (names, scales, mount matrices, triggers, corrections), so
        that body = boardRotation · mountMatrix · ((raw + offset) · unitsPerCount)
        can be checked from the file alone.
        With --gpsd, each sample also gets the ground speed and track of gpsd's latest
        fresh fix (empty without one) in the speed and track columns, which replay uses.
        Where the gyroscope's device has a temperature channel (in_temp_raw), its
        reading (°C, read once a second) goes in the temperature column.
        While recording, the heading stream is printed as by 'lodestone watch' (same
        pipeline and position options); 'lodestone replay FILE' with the same options
        prints the same lines, byte for byte (all but the source's own events). Without --duration it records until
        Ctrl-C (exit 130) or SIGTERM (exit 0); either way the file is flushed and
        synced. Lines are written to the file at least once a second.
        """
    static let options: [CommandLineOption] = [
        .value("output", "FILE", short: "o", "Where to write the log ('-': standard output, and no headings are printed)."),
        .value("duration", "SECONDS", "Record samples with time below this many seconds, then stop."),
        .value("note", "TEXT", "A note to keep in the log header."),
    ] + HeadingFlags.iio + HeadingFlags.pipeline + HeadingFlags.position + HeadingFlags.livePosition

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        guard let output = arguments.string("output") else { throw UsageError("missing -o FILE") }
        let duration = try arguments.double("duration", in: 0.001...1e9)
        let configuration = try HeadingFlags.configuration(arguments)
        let note = arguments.string("note")
        let toStdout = output == "-"
        let path = toStdout ? "/dev/stdout" : output
        if !toStdout { try checkWritable(path) }

        let stop = StopSignals()
        let opened = try IIOSessionSource.open(configuration, allSensors: true)
        let source = opened.source
        let cancellation = source.cancellation
        stop.onStop { cancellation.cancel() }
        defer { source.close() }

        // The profiles for this device, found as `replay` will find them from the log header.
        let lines = HeadingLines(session: try HeadingSession.open(configuration.session, for: opened))
        var writer: LogWriter?
        var lastFlush = 0.0
        let live = LiveHeadings(duration: duration, stopsWhenOutputCloses: false, printsHeadings: !toStdout)
        let code: ExitCode
        do {
            code = try live.run(source: opened, lines: lines, stop: stop) { sample, start in
                if writer == nil {
                    writer = try LogWriter(path: path, metadata: metadata(source: source, devices: opened.calibrationDevices, start: start, note: note),
                                           gyroscope: source.metadata.gyroscope != nil, groundTrack: configuration.position.isLive,
                                           temperature: sample.temperature != nil, extraColumns: rawColumns(source))
                }
                let raw = source.latestRaw ?? IIORawCounts(magnetometer: .zero, accelerometer: .zero, gyroscope: nil)
                try writer!.write(sample, integerExtras: rawValues(raw, gyroscope: source.metadata.gyroscope != nil))
                if sample.time - lastFlush >= 1 {
                    try writer!.flush()
                    lastFlush = sample.time
                }
            }
        } catch {
            try? writer?.finish()
            throw error
        }
        guard let writer else {
            Console.error("no sample arrived; \(output) was not written")
            return code == .success && stop.received == nil ? .failure : code
        }
        try writer.finish()
        return code
    }

    /// Fails early (exit 3) when the log could not be created, before waiting for sensors.
    static func checkWritable(_ path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let ok = access(path, F_OK) == 0 ? access(path, W_OK) == 0 : access(directory, W_OK) == 0
        guard ok else {
            throw CommandFailure(.inaccessible, "\(path): cannot write here: \(String(cString: strerror(errno))); choose another -o FILE")
        }
    }

    static func rawColumns(_ source: IIOSensorSource) -> [String] {
        let kinds = ["mag", "accel"] + (source.metadata.gyroscope != nil ? ["gyro"] : [])
        return kinds.flatMap { k in ["x", "y", "z"].map { "\(k)_raw_\($0)" } }
    }

    static func rawValues(_ raw: IIORawCounts, gyroscope: Bool) -> [Int64] {
        let m = raw.magnetometer, a = raw.accelerometer
        var v = [m.x, m.y, m.z, a.x, a.y, a.z]
        if gyroscope {
            let g = raw.gyroscope ?? .zero
            v += [g.x, g.y, g.z]
        }
        return v
    }

    /// The log header: where, when, how fast, and everything needed to redo the scaling.
    /// The sensors' identities (driver, label as serial) go into their objects, so that
    /// `SourceDevices(log:)` finds the same calibration profiles as the live run did.
    static func metadata(source: IIOSensorSource, devices: SourceDevices, start: String, note: String?) -> LogMetadata {
        let meta = source.metadata
        var device: JSONValue = .null
        if let data = try? JSONEncoder().encode(meta), let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            device = value
        }
        if case .object(var o) = device {
            o["rawColumns"] = .string("mag_raw_*, accel_raw_*, gyro_raw_*: raw counts; body = boardRotation · mountMatrix · ((raw + offset) · unitsPerCount)")
            for (key, identity) in [("magnetometer", devices.magnetometer), ("accelerometer", devices.accelerometer)] {
                guard case .object(var sensor)? = o[key], let identity else { continue }
                if let driver = identity.driver { sensor["driver"] = .string(driver) }
                if let serial = identity.serial { sensor["serial"] = .string(serial) }
                o[key] = .object(sensor)
            }
            device = .object(o)
        }
        let rate = meta.mode == .buffered ? (meta.accelerometer.samplingFrequency ?? meta.requestedRate) : meta.requestedRate
        return LogMetadata(start: start, rate: rate, source: "iio:" + meta.uri, device: device, note: note)
    }
}
