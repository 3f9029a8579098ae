import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// `lodestone replay`: run a recorded log through the pipeline, print NDJSON.
enum ReplayCommand: Command {
    static let name = "replay"
    static let summary = "Replay a recorded log through the heading pipeline and print NDJSON headings."
    static let usage = "replay [FILE] [options]"
    static let discussion = """
        FILE is a plain CSV log (header time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z
        with optional gyro_x,gyro_y,gyro_z, and optional speed (m/s) and track (degrees
        from true north) from a position source, empty where unknown) or a native
        Lodestone log; '-' reads standard input. One JSON object is printed per delivered heading with the keys timestamp,
        magneticHeading, trueHeading, headingAccuracy, x, y, z and attitude.
        Without FILE, the bundled demo recording is replayed.

        With --lat and --lon, trueHeading = magneticHeading + declination from the bundled
        World Magnetic Model (the line gains a declination key). The model date is --date
        or --year, else the log's wall-clock start (native logs) plus log time, else today;
        the model is re-evaluated after each hour of log time. Near the magnetic poles
        (blackout zone, H < 2000 nT) trueHeading and declination stay null and an event
        line says why.

        Calibration: --calibration FILE applies a profile made by 'lodestone calibrate'
        (a magnetometer and an accelerometer profile may be given, comma-separated).
        Without it, a native log recorded from a named device uses the profiles in
        calibration/ made for that device, if there are any; --calibration none
        replays raw readings.

        --auto-calibrate follows a changed hard iron (off by default): every 30 s of log
        time the last minute's readings are fitted with the profile's matrix kept; after
        three fits in a row that cover ≥ 40 % of directions and fit ≥ 30 % better than the
        offset in use, the new offset is used, a calibrationUpdated event says what
        changed, and the profile file is rewritten atomically (kept in memory when no
        file is in use). See docs/calibration.md, "Online hard-iron tracking".
        """
    static let options: [CommandLineOption] = HeadingFlags.pipeline + HeadingFlags.position + [
        .flag("skip-bad-lines", "Skip malformed lines instead of stopping; report how many at the end."),
        .refused("gpsd", "a replay takes its position from --lat/--lon; gpsd gives live positions (watch, record, serve)"),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let given = try arguments.positionals(required: 0, optional: 1, "FILE").first
        let path = try given ?? BundledRecording.path()
        let configuration = try HeadingFlags.configuration(arguments)
        let reader = try LogReader(path: path, options: .init(skipBadLines: arguments.flag("skip-bad-lines")))
        if given == nil {
            Console.note("lodestone: replaying the bundled demo recording \(path) (a SIMULATED board, not a sensor; pass a FILE to replay your own)")
        }
        let source = ReplaySessionSource(reader: reader, path: path)
        var lines = HeadingLines(session: try HeadingSession.open(configuration.session, for: source))
        lines.start(wallClockStart: source.startWallClock)
        let output = OutputStream(fd: 1)
        let json = JSONLineBuilder()
        defer { output.flush() }
        do {
            while let sample = try reader.nextSample() {
                _ = lines.append(sample, to: json)
                if json.bytes.count >= 1 << 15 {
                    output.write(json.bytes)
                    json.removeAll()
                }
            }
        } catch {
            output.write(json.bytes)
            throw error
        }
        output.write(json.bytes)
        if reader.skippedLineCount > 0 {
            for e in reader.skippedLines { Console.note("lodestone: skipped \(e)") }
            Console.error("skipped \(reader.skippedLineCount) bad line(s) in \(path)")
        }
        return .success
    }
}
