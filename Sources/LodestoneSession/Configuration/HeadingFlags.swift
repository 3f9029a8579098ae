import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneIIO
import LodestoneNetwork

/// The command-line flags of a heading session, for every command that runs one
/// (`replay`, `watch`, `record`, `evaluate`, `serve`): one list of options per
/// group, and one function that maps the flags given onto a ``HeadingConfiguration``.
/// A command offers the groups that apply to it; the parser refuses the rest.
public enum HeadingFlags {
    /// IIO sensors: `watch`, `record`, `calibrate`, `serve`.
    public static let iio: [CommandLineOption] = [
        .value("uri", "URI", "libiio context: local: (default), ip:HOST[:PORT] (iiod), usb:…, serial:…"),
        .value("magn", "DEV", "Use this magnetometer: a device id (iio:device2), name (lis3mdl) or label."),
        .value("accel", "DEV", "Use this accelerometer (id, name or label)."),
        .value("gyro", "DEV", "Use this gyroscope (id, name or label); by default one is read when found."),
        .value("mode", "MODE", "auto (default: buffered when every device can), buffered or polled."),
        .value("rate", "HZ", "Sample rate (default \(HeadingConfiguration.text(SourceConfiguration.defaultRate)), at most \(HeadingConfiguration.text(SourceConfiguration.rates.upperBound))): each device gets the nearest rate it offers; the polling rate in polled mode."),
        .value("board-rotation", "ROT", "How the board is mounted beyond its mount matrices (device → body): degrees about z (90), or a matrix 'a, b, c; d, e, f; g, h, i'."),
    ]

    /// The other sources of `serve`.
    public static let sourceChoice: [CommandLineOption] = [
        .value("source", "SOURCE", "iio (default), replay:FILE or simulated."),
        .flag("loop", "Replay: start again at the end of the log."),
        .value("speed", "X", "Replay: log seconds per second (default 1), or max."),
    ]

    /// How headings are made: every command that runs the pipeline.
    public static let pipeline: [CommandLineOption] = [
        .value("heading-filter", "DEG", "Deliver a heading only after it moved this many degrees (default 1; 0 = every sample)."),
        .value("forward", "AXIS", "Body axis whose heading is reported: +y (default), +x, -y, -x, or -z (the back of a board standing upright), +z."),
        .flag("no-smoothing", "Report the per-sample heading without smoothing (compass mode; refused where gyro fusion runs)."),
        .value("fusion", "MODE", "auto (default: gyro fusion when there is a gyroscope), ecompass or ahrs."),
        .value("calibration", "FILE[,FILE]",
               "Calibration profile(s): a magnetometer's and/or an accelerometer's. Default: the profiles in calibration/ made for the devices, if any; 'none' applies none."),
        .flag("auto-calibrate", "Follow a changed hard iron from the readings of normal use (off by default): when recent data clearly fit a new offset, use it, report it (calibrationUpdated), and update the profile file."),
    ]

    /// A position given by hand, and the model: for true heading.
    public static let position: [CommandLineOption] = [
        .value("lat", "DEG", "Fixed position: latitude, degrees north (with --lon: fills trueHeading and declination)."),
        .value("lon", "DEG", "Fixed position: longitude, degrees east."),
        .value("alt-m", "M", "Fixed position: height above the WGS 84 ellipsoid in metres (default 0)."),
        .value("date", "YYYY-MM-DD", "Model date (default: the samples' wall clock: a log's start time, else now)."),
        .value("year", "DECIMAL", "Model date as a decimal year, e.g. 2026.5."),
        .value("model", "NAME", "Geomagnetic model: wmm (WMM2025, default) or wmmhr (WMMHR2025)."),
        .flag("allow-extrapolation", "Accept a date or height outside the model's validity (marked degraded)."),
    ]

    /// A position that changes: live commands.
    public static let livePosition: [CommandLineOption] = [
        .value("gpsd", "HOST:PORT", "Position, speed and track from gpsd (e.g. localhost:2947): true heading, and speed aiding of gyro fusion; reconnects with back-off."),
        .value("max-fix-age", "S", "A gpsd fix older than this turns trueHeading null (default 10)."),
        .value("position-log", "FILE", "Position from a recorded NMEA 0183 log or GPX track, replayed as if live (tests, demos)."),
        .value("position-speed", "X", "Position log: recorded seconds per second (default 1), or max."),
        .flag("position-loop", "Position log: start again at its end."),
    ]

    /// Applies the flags in `a` to `c`; options a command does not offer never reach here.
    public static func apply(_ a: CommandLineArguments, to c: inout HeadingConfiguration) throws(UsageError) {
        try applySource(a, to: &c)
        try applyPipeline(a, to: &c.session)
        try applyPosition(a, to: &c.session.trueNorth)
    }

    /// Defaults, then the flags; validated.
    public static func configuration(_ a: CommandLineArguments, base: HeadingConfiguration = .init()) throws(UsageError) -> HeadingConfiguration {
        var c = base
        try apply(a, to: &c)
        do {
            try c.validate()
        } catch {
            throw UsageError("\(error)")
        }
        return c
    }

    // MARK: Groups

    static func applySource(_ a: CommandLineArguments, to c: inout HeadingConfiguration) throws(UsageError) {
        let iioFlags = iio.map(\.name).filter { $0 != "rate" }
        if let text = a.string("source") {
            if text == "iio" {
                if case .iio = c.source {} else { c.source = .iio(IIOSourceConfiguration()) }
            } else if text == "simulated" {
                c.source = .simulated(.init())
            } else if text.hasPrefix("replay:"), text.count > 7 {
                c.source = .replay(.init(path: String(text.dropFirst(7))))
            } else {
                throw UsageError("--source must be iio, replay:FILE or simulated, not '\(text)'")
            }
        }
        switch c.source {
        case .iio(var s):
            if a.flag("loop") || a.string("speed") != nil { throw UsageError("--loop and --speed apply to --source replay:FILE") }
            try applyIIO(a, to: &s)
            c.source = .iio(s)
        case .replay(var r):
            if let f = iioFlags.first(where: { a.string($0) != nil }) ?? (a.string("rate") != nil ? "rate" : nil) {
                throw UsageError("--\(f) does not apply to a replay (the log's timestamps set the pace; use --speed)")
            }
            if a.flag("loop") { r.loop = true }
            if let v = a.string("speed") { r.speed = try speed(v) }
            c.source = .replay(r)
        case .simulated(var s):
            if let f = iioFlags.first(where: { a.string($0) != nil }) { throw UsageError("--\(f) applies to --source iio") }
            if a.flag("loop") || a.string("speed") != nil { throw UsageError("--loop and --speed apply to --source replay:FILE") }
            if let v = try a.double("rate", in: SourceConfiguration.simulatedRates) { s.rate = v }
            c.source = .simulated(s)
        }
    }

    static func applyIIO(_ a: CommandLineArguments, to s: inout IIOSourceConfiguration) throws(UsageError) {
        if let uri = a.string("uri") {
            guard !uri.isEmpty else { throw UsageError("--uri needs a libiio URI such as local: or ip:192.168.1.20") }
            s.uri = uri
        }
        if let v = a.string("magn") { s.magnetometerDevice = v }
        if let v = a.string("accel") { s.accelerometerDevice = v }
        if let v = a.string("gyro") { s.gyroscopeDevice = v }
        if let text = a.string("mode") {
            guard let mode = IIOCaptureMode(rawValue: text) else { throw UsageError("--mode must be auto, buffered or polled; got '\(text)'") }
            s.mode = mode
        }
        if let rate = try a.double("rate", in: SourceConfiguration.rates) { s.rate = rate }
        if let text = a.string("board-rotation") {
            guard let m = BoardRotation.parse(text) else {
                throw UsageError("--board-rotation must be degrees about z (e.g. 90) or a rotation matrix 'a, b, c; d, e, f; g, h, i'; got '\(text)'")
            }
            s.boardRotation = m
        }
    }

    static func speed(_ text: String, flag: String = "speed") throws(UsageError) -> Double? {
        if text == "max" { return nil }
        guard let x = Double(text), x.isFinite, x > 0 else { throw UsageError("--\(flag) must be a number > 0 or max, got '\(text)'") }
        return x
    }

    static func applyPipeline(_ a: CommandLineArguments, to s: inout HeadingSession.Settings) throws(UsageError) {
        if let f = try a.double("heading-filter") {
            guard f >= 0 else { throw UsageError("--heading-filter must be ≥ 0 degrees, got \(f)") }
            s.headingFilter = f
        }
        if let text = a.string("forward") {
            guard let axis = ForwardAxis(argument: text) else { throw UsageError("--forward must be one of \(ForwardAxis.spellings); got '\(text)'") }
            s.estimator.forwardAxis = axis
        }
        if a.flag("no-smoothing") { s.estimator.smoothing = nil }
        if let text = a.string("fusion") {
            guard let mode = FusionMode(rawValue: text) else { throw UsageError("--fusion must be auto, ecompass or ahrs; got '\(text)'") }
            s.estimator.fusion = mode
        }
        if let text = a.string("calibration") {
            do {
                s.calibration = try CalibrationChoice(argument: text)
            } catch {
                throw UsageError("--calibration \(error)")
            }
        }
        if a.flag("auto-calibrate") { s.hardIronTracking = true }
    }

    /// The position flags (`--lat/--lon`, `--gpsd`, `--position-log` …) onto `t`: also for `lodestone locate`.
    public static func applyPosition(_ a: CommandLineArguments, to t: inout TrueNorth.Settings) throws(UsageError) {
        let lat = try a.double("lat", in: -90...90), lon = try a.double("lon", in: -180...360)
        guard (lat == nil) == (lon == nil) else { throw UsageError("--lat and --lon go together") }
        let sources = (lat != nil ? ["--lat/--lon"] : []) + ["gpsd", "position-log"].filter { a.string($0) != nil }.map { "--" + $0 }
        guard sources.count <= 1 else { throw UsageError("give one position source: \(sources.joined(separator: " or ")), not both") }
        if let lat, let lon {
            t.position = .fixed(latitude: lat, longitude: lon, height: try a.double("alt-m", in: HeadingConfiguration.heights) ?? 0)
        } else if a.string("alt-m") != nil {
            throw UsageError("--alt-m goes with --lat and --lon")
        }
        if let text = a.string("gpsd") {
            switch Endpoint.parse(text, defaultHost: "localhost", defaultPort: PositionSetting.defaultGPSD.port) {
            case .success(let e): t.position = .gpsd(e)
            case .failure(let e): throw UsageError("--gpsd: \(e.message)")
            }
        }
        if let path = a.string("position-log") {
            var replay = PositionReplay(path: path)
            if let v = a.string("position-speed") { replay.speed = try speed(v, flag: "position-speed") }
            replay.loop = a.flag("position-loop")
            t.position = .replay(replay)
        } else if a.string("position-speed") != nil || a.flag("position-loop") {
            throw UsageError("--position-speed and --position-loop go with --position-log FILE")
        }
        if let v = try a.double("max-fix-age") {
            guard v > 0 else { throw UsageError("--max-fix-age must be > 0 seconds, got \(v)") }
            t.maxFixAge = v
        }
        if let date = try modelDate(a) { t.modelDate = date }
        if let m = a.string("model") {
            guard let model = MagneticModelName(argument: m) else { throw UsageError("--model must be wmm or wmmhr, got '\(m)'") }
            t.model = model
        }
        if a.flag("allow-extrapolation") { t.allowExtrapolation = true }
    }

    /// Unix time from --date or --year, if given.
    public static func modelDate(_ a: CommandLineArguments) throws(UsageError) -> Double? {
        let date = a.string("date"), year = try a.double("year", in: 1900...2200)
        guard date == nil || year == nil else { throw UsageError("give --date or --year, not both") }
        if let year { return DecimalYear.unixTime(fromDecimalYear: year) }
        guard let date else { return nil }
        guard date.count == 10, let t = WallClockTime.parse(date) else { throw UsageError("--date must be YYYY-MM-DD, got '\(date)'") }
        return t
    }
}
