#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism

/// The command line of `lodestone serve`, shared by the `lodestone` CLI and the lean
/// daemon executable `lodestone-serve` it runs.
///
/// Why two executables: everything one executable links is mapped into every process
/// it starts. The CLI's other commands use full Foundation (about 8 MB of resident
/// memory); the daemon must stay small, so `lodestone serve` replaces itself (exec, same
/// PID) with `lodestone-serve`, which links only what the service needs: no Foundation at
/// all, not even FoundationEssentials (JSON is the package's own, `LodestoneJSON`).
public enum ServeCommandLine {
    /// The release reported in VERSION objects (kept equal to `lodestone --version`; tested).
    public static let release = "0.1.0"

    public static let summary = "Run the heading service: JSON lines over a socket, NMEA 0183, on demand."
    public static let usage = "serve [--config FILE] [options]"
    public static let discussion = """
        Serves headings to clients over a Unix socket (default \(ServiceConfiguration.defaultSocketPath))
        and optionally TCP, with gpsd's style of protocol (see PROTOCOL.md):
          ?WATCH={"enable":true,"headingFilter":5};   stream HEADING objects
          ?POLL;  ?DEVICES;  ?VERSION;  ?STEER={"lat":52.5,"lon":13.4};
        The sensors are read only while a client watches (or NMEA output has a consumer).

        Sources: --source iio (default; libiio, --uri/--magn/--accel/--gyro/--mode/--rate/
        --board-rotation), --source replay:FILE (--loop, --speed X or max), or
        --source simulated (a SIMULATED board for demos, paced in real time).

        The config file (JSON; see the README and tools/lodestone.example.json) holds the
        same settings; flags override it. SIGHUP reloads the file and the calibration
        profiles (found again for the devices, by default); SIGTERM stops cleanly. Logs go to standard error (journald priorities
        under systemd); with NOTIFY_SOCKET set it speaks sd_notify (Type=notify).
        """

    public static let options: [CommandLineOption] = [
        .value("config", "FILE", "JSON config file (flags override its values)."),
        .value("source", "SOURCE", "iio (default), replay:FILE or simulated."),
        .flag("loop", "Replay: start again at the end of the log."),
        .value("speed", "X", "Replay: log seconds per second (default 1), or max."),
        .value("uri", "URI", "IIO: libiio context: local: (default), ip:HOST[:PORT] (iiod), usb:…, serial:…"),
        .value("magn", "DEV", "IIO: magnetometer device (id such as iio:device2, name or label)."),
        .value("accel", "DEV", "IIO: accelerometer device (id, name or label)."),
        .value("gyro", "DEV", "IIO: gyroscope device (id, name or label)."),
        .value("mode", "MODE", "IIO: auto (default), buffered or polled."),
        .value("rate", "HZ", "IIO or simulated: sample rate (default 100)."),
        .value("board-rotation", "ROT", "IIO: device → body rotation, degrees about z (90) or a matrix 'a, b, c; d, e, f; g, h, i'."),
        .value("calibration", "FILE[,FILE]", "Calibration profile(s): a magnetometer's and/or an accelerometer's (see calibration/README.md). Default: the profiles in calibration/ made for the devices opened; 'none' applies none. Read again on SIGHUP."),
        .flag("auto-calibrate", "Follow a changed hard iron from the readings of normal use (off by default): use the new offset, tell watchers (EVENT calibrationUpdated) and rewrite the profile file."),
        .value("heading-filter", "DEG", "headingFilter of watchers that give none (default 1; 0 = every sample)."),
        .value("forward", "AXIS", "Body axis whose heading is reported: +y (default), +x, -y, -x."),
        .flag("no-smoothing", "Report the per-sample heading without smoothing (compass mode)."),
        .value("fusion", "MODE", "auto (default: gyro fusion when there is a gyroscope), ecompass or ahrs."),
        .value("lat", "DEG", "Fixed position: latitude, degrees north (with --lon)."),
        .value("lon", "DEG", "Fixed position: longitude, degrees east."),
        .value("alt-m", "M", "Fixed position: height above the WGS 84 ellipsoid in metres (default 0)."),
        .value("gpsd", "HOST:PORT", "Position from gpsd (e.g. localhost:2947); reconnects with back-off."),
        .value("max-fix-age", "S", "A gpsd fix older than this turns trueHeading null (default 10)."),
        .value("date", "YYYY-MM-DD", "Model date (default: the clock)."),
        .value("year", "DECIMAL", "Model date as a decimal year, e.g. 2026.5."),
        .value("model", "NAME", "Geomagnetic model: wmm (WMM2025, default) or wmmhr (WMMHR2025)."),
        .flag("allow-extrapolation", "Accept a date or height outside the model's validity (marked degraded)."),
        .value("socket", "PATH", "Unix socket path, or 'none' (default \(ServiceConfiguration.defaultSocketPath))."),
        .value("socket-mode", "MODE", "Octal file mode of the Unix socket (default 0660)."),
        .value("listen", "HOST:PORT", "Also serve the protocol on TCP (comma-separated list; loopback if no host)."),
        .value("nmea", "HOST:PORT", "NMEA 0183 TCP server (usual port 10110; loopback if no host)."),
        .value("nmea-serial", "PATH", "Also write NMEA sentences to this serial device."),
        .value("nmea-baud", "N", "Serial speed (default 4800)."),
        .value("nmea-rate", "HZ", "NMEA sentence groups per second (default 1)."),
        .value("max-clients", "N", "Connected clients at most (default 32)."),
        .flag("verbose", short: "v", "Log debug messages too."),
    ]

    /// The help text, as `lodestone help serve` prints it.
    public static var helpText: String {
        CommandHelp.text(usage: usage, summary: summary, discussion: discussion, options: options)
    }

    // MARK: Configuration

    /// Defaults, then the config file, then the flags; validated.
    public static func configuration(_ a: CommandLineArguments) throws -> ServiceConfiguration {
        var c = ServiceConfiguration()
        if let path = a.string("config") { c = try c.applying(file: path) }
        try applyFlags(a, to: &c)
        do {
            try c.validate()
        } catch {
            throw UsageError("\(error)")
        }
        return c
    }

    static func endpoint(_ text: String, _ option: String, host: String, port: UInt16?) throws(UsageError) -> Endpoint {
        switch Endpoint.parse(text, defaultHost: host, defaultPort: port) {
        case .success(let e): return e
        case .failure(let e): throw UsageError("--\(option): \(e.message)")
        }
    }

    static func applyFlags(_ a: CommandLineArguments, to c: inout ServiceConfiguration) throws(UsageError) {
        let iioFlags = ["uri", "magn", "accel", "gyro", "mode", "board-rotation"]
        if let text = a.string("source") {
            if text == "iio" {
                if case .iio = c.source {} else { c.source = .iio(.init()) }
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
            if let v = a.string("uri") { s.uri = v }
            if let v = a.string("magn") { s.magnetometer = v }
            if let v = a.string("accel") { s.accelerometer = v }
            if let v = a.string("gyro") { s.gyroscope = v }
            if let v = a.string("mode") { s.mode = v }
            if let v = try a.double("rate") { s.rate = v }
            if let v = a.string("board-rotation") { s.boardRotation = v }
            c.source = .iio(s)
        case .replay(var r):
            if let f = iioFlags.first(where: { a.string($0) != nil }) ?? (a.string("rate") != nil ? "rate" : nil) {
                throw UsageError("--\(f) does not apply to a replay (the log's timestamps set the pace; use --speed)")
            }
            if a.flag("loop") { r.loop = true }
            if let v = a.string("speed") {
                if v == "max" {
                    r.speed = nil
                } else {
                    guard let x = Double(v), x.isFinite, x > 0 else { throw UsageError("--speed must be a number > 0 or max, got '\(v)'") }
                    r.speed = x
                }
            }
            c.source = .replay(r)
        case .simulated(var s):
            if let f = iioFlags.first(where: { a.string($0) != nil }) { throw UsageError("--\(f) applies to --source iio") }
            if a.flag("loop") || a.string("speed") != nil { throw UsageError("--loop and --speed apply to --source replay:FILE") }
            if let v = try a.double("rate") { s.rate = v }
            c.source = .simulated(s)
        }
        if let v = a.string("calibration") {
            do {
                c.calibration = try CalibrationChoice(argument: v)
            } catch {
                throw UsageError("--calibration \(error)")
            }
        }
        if a.flag("auto-calibrate") { c.autoCalibrate = true }
        if let f = try a.double("heading-filter") {
            guard f >= 0 else { throw UsageError("--heading-filter must be ≥ 0 degrees, got \(f)") }
            c.headingFilter = f
        }
        if let text = a.string("forward") {
            guard let axis = ForwardAxis(argument: text) else { throw UsageError("--forward must be one of +y, +x, -y, -x; got '\(text)'") }
            c.forwardAxis = axis
        }
        if a.flag("no-smoothing") { c.smoothing = false }
        if let text = a.string("fusion") {
            guard let mode = FusionMode(rawValue: text) else { throw UsageError("--fusion must be auto, ecompass or ahrs; got '\(text)'") }
            c.fusion = mode
        }
        let lat = try a.double("lat", in: -90...90), lon = try a.double("lon", in: -180...360)
        guard (lat == nil) == (lon == nil) else { throw UsageError("--lat and --lon go together") }
        if let lat, let lon {
            guard a.string("gpsd") == nil else { throw UsageError("give --lat/--lon or --gpsd, not both") }
            c.position = .fixed(latitude: lat, longitude: lon, height: try a.double("alt-m", in: -10_000...1e7) ?? 0)
        } else if a.string("alt-m") != nil {
            throw UsageError("--alt-m goes with --lat and --lon")
        }
        if let text = a.string("gpsd") { c.position = .gpsd(try endpoint(text, "gpsd", host: "localhost", port: 2947)) }
        if let v = try a.double("max-fix-age") {
            guard v > 0 else { throw UsageError("--max-fix-age must be > 0 seconds, got \(v)") }
            c.maxFixAge = v
        }
        let date = a.string("date"), year = try a.double("year", in: 1900...2200)
        guard date == nil || year == nil else { throw UsageError("give --date or --year, not both") }
        if let year { c.modelDate = DecimalYear.unixTime(fromDecimalYear: year) }
        if let date {
            guard date.count == 10, let t = WallClockTime.parse(date) else { throw UsageError("--date must be YYYY-MM-DD, got '\(date)'") }
            c.modelDate = t
        }
        if let m = a.string("model") {
            switch m {
            case "wmm", "wmm2025": c.model = .wmm
            case "wmmhr", "wmmhr2025": c.model = .wmmhr
            default: throw UsageError("--model must be wmm or wmmhr, got '\(m)'")
            }
        }
        if a.flag("allow-extrapolation") { c.allowExtrapolation = true }
        if let v = a.string("socket") { c.socketPath = v == "none" ? nil : v }
        if let v = a.string("socket-mode") {
            guard let m = UInt32(v, radix: 8), m <= 0o777 else { throw UsageError("--socket-mode must be an octal mode such as 0660, got '\(v)'") }
            c.socketMode = m
        }
        if let v = a.string("listen") {
            c.tcpListeners = try v.split(separator: ",").map { s throws(UsageError) in
                try endpoint(String(s), "listen", host: "127.0.0.1", port: nil)
            }
        }
        if let v = a.string("nmea") {
            c.nmea.listen = v == "none" ? nil : try endpoint(v, "nmea", host: "127.0.0.1", port: ServiceConfiguration.defaultNMEAPort)
        }
        if let v = a.string("nmea-serial") { c.nmea.serial = v == "none" ? nil : v }
        if let v = try a.integer("nmea-baud", minimum: 1) { c.nmea.baud = v }
        if let v = try a.double("nmea-rate") { c.nmea.rate = v }
        if let v = try a.integer("max-clients", minimum: 1) { c.limits.maxClients = v }
    }

    // MARK: Running

    /// Runs the service with these arguments (after `serve`); returns the exit code:
    /// 0 stopped by SIGTERM or the end of a replay, 1 bad config/profile/log, 2 bad flags,
    /// 3 a socket/file/device that cannot be opened, 4 a sensor failure, 130 SIGINT.
    public static func main(_ arguments: [String]) -> Int32 {
        let log = ServiceLog(threshold: arguments.contains("-v") || arguments.contains("--verbose") ? .debug : .info)
        if arguments.contains("--help") || arguments.contains("-h") {
            print(helpText, terminator: "")
            return 0
        }
        let parsed: CommandLineArguments
        let configuration: ServiceConfiguration
        do {
            parsed = try CommandLineArguments(arguments, options: options)
            _ = try parsed.positionals(required: 0, "")
            configuration = try Self.configuration(parsed)
        } catch let e as UsageError {
            log.error("serve: \(e)\nTry 'lodestone help serve'.")
            return 2
        } catch {
            log.error("\(error)")
            return 1
        }
        if case .simulated = configuration.source {
            log.notice("the source is a SIMULATED board (demo motion), not a sensor")
        }
        // Without a config file a reload reads the same flags again: the calibration profiles are re-read.
        let reload: HeadingService.Reload = { try Self.configuration(parsed) }
        let service: HeadingService
        do {
            service = try HeadingService(configuration: configuration, release: release, log: log, reload: reload)
        } catch {
            var text = error.description
            if case .iio = configuration.source, parsed.string("source") == nil, parsed.string("config") == nil {
                text += " (No IIO sensors here? '--source simulated' serves a simulated board for a demo.)"
            }
            log.error(text)
            return exitCode(error.kind)
        }
        switch service.run() {
        case .stopped(let signal): return signal == SIGINT ? 130 : 0
        case .sourceEnded: return 0
        case .failed(let error): return exitCode(error.kind)
        }
    }

    static func exitCode(_ kind: ServiceError.Kind) -> Int32 {
        switch kind {
        case .badInput: return 1
        case .inaccessible: return 3
        case .failure: return 4
        }
    }
}
