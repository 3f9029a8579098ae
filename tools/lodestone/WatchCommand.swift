import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneIIO
import LodestoneSession

/// `lodestone watch`: the live heading stream from IIO sensors.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "Print the live heading stream from the board's IIO magnetometer and accelerometer as NDJSON."
    static let usage = "watch [options]"
    static let discussion = """
        One JSON object per delivered heading, in replay's format plus "time", the
        wall clock of the sample (ISO 8601, UTC), and the same pipeline events as
        replay (calibrationNeeded, magneticDisturbance, headingUnavailable, true-north
        events with --lat and --lon). Each line is written as soon as it is made. The
        source adds its own events: {"event":"sourceFault","reason":CODE,"detail":…}
        when the sensors fail (they are retried with back-off from 0.1 s to 5 s),
        {"event":"sourceResumed"} when they work again, and {"event":"sensorHealth",
        "flags":[…]} when a sensor is stuck or saturated (empty flags: all well again).
        With --gpsd HOST:PORT, gpsd's fixes give true heading (as --lat/--lon do) and
        their ground speed and track aid gyro fusion on a vehicle.
        Ctrl-C stops with exit code 130, SIGTERM with 0. A missing or forbidden
        device exits 3, a failing sensor 4; see 'lodestone devices'.
        --auto-calibrate follows a changed hard iron as replay does: a calibrationUpdated
        event, and the device's profile rewritten atomically.
        """
    static let options: [CommandLineOption] = HeadingFlags.iio + HeadingFlags.pipeline + HeadingFlags.position
        + HeadingFlags.livePosition + [.value("count", "N", "Stop after N headings.")]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let configuration = try HeadingFlags.configuration(arguments)
        let count = try arguments.integer("count", minimum: 1)
        let stop = StopSignals()
        let source = try IIOSessionSource.open(configuration)
        let cancellation = source.source.cancellation
        stop.onStop { cancellation.cancel() }
        defer { source.release() }
        let lines = HeadingLines(session: try HeadingSession.open(configuration.session, for: source))
        return try LiveHeadings(headingLimit: count).run(source: source, lines: lines, stop: stop)
    }
}
