#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore
import LodestoneService

/// `lodestone serve`: the heading daemon.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the heading service: JSON lines over a socket, NMEA 0183, on demand."
    static let usage = "serve [--config FILE] [options]"
    static let discussion = """
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
        profile; SIGTERM stops cleanly. Logs go to standard error (journald priorities
        under systemd); with NOTIFY_SOCKET set it speaks sd_notify (Type=notify).
        """
    static let options: [CommandLineArguments.Option] = [
        .value("config", "FILE", "JSON config file (flags override its values)."),
        .value("source", "SOURCE", "iio (default), replay:FILE or simulated."),
        .flag("loop", "Replay: start again at the end of the log."),
        .value("speed", "X", "Replay: log seconds per second (default 1), or max."),
        .value("uri", "URI", "IIO: libiio context (default local:)."),
        .value("magn", "DEV", "IIO: magnetometer device (name, label or iio:deviceN)."),
        .value("accel", "DEV", "IIO: accelerometer device."),
        .value("gyro", "DEV", "IIO: gyroscope device."),
        .value("mode", "MODE", "IIO: auto (default), buffered or polled."),
        .value("rate", "HZ", "IIO or simulated: sample rate (default 100)."),
        .value("board-rotation", "ROT", "IIO: device → body rotation, degrees about z or a matrix."),
        .value("calibration", "FILE", "Magnetometer calibration profile (see calibration/README.md), read again on SIGHUP; 'none' for none."),
    ] + PipelineOptions.options.filter { $0.name != "calibration" } + PositionOptions.options + [
        .value("gpsd", "HOST:PORT", "Position from gpsd (e.g. localhost:2947); reconnects with back-off."),
        .value("max-fix-age", "S", "A gpsd fix older than this turns trueHeading null (default 10)."),
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

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let configuration = try configure(arguments)
        let log = ServiceLog(threshold: arguments.flag("verbose") ? .debug : .info)
        if case .simulated = configuration.source {
            log.notice("the source is a SIMULATED board (demo motion), not a sensor")
        }
        let reload: HeadingService.Reload? = arguments.string("config") == nil ? nil : { try configure(arguments) }
        let service: HeadingService
        do {
            service = try HeadingService(configuration: configuration, release: LodestoneCLI.version, log: log, reload: reload)
        } catch {
            var text = error.description
            if case .iio = configuration.source, arguments.string("source") == nil, arguments.string("config") == nil {
                text += "\n(No IIO sensors here? '--source simulated' serves a simulated board for a demo.)"
            }
            throw CommandFailure(exitCode(error.kind), text)
        }
        switch service.run() {
        case .stopped(let signal):
            return signal == SIGINT ? .interrupted : .success
        case .sourceEnded:
            return .success
        case .failed(let error):
            return exitCode(error.kind)
        }
    }

    static func exitCode(_ kind: ServiceError.Kind) -> ExitCode {
        switch kind {
        case .badInput: return .badInput
        case .inaccessible: return .inaccessible
        case .failure: return .failure
        }
    }

    /// Defaults, then the config file, then the flags.
    static func configure(_ arguments: CommandLineArguments) throws -> ServiceConfiguration {
        var c = ServiceConfiguration()
        if let path = arguments.string("config") {
            do {
                c = try c.applying(file: path)
            } catch {
                throw CommandFailure(.badInput, error.description)
            }
        }
        try applyFlags(arguments, to: &c)
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
            guard !v.contains(",") else {
                throw UsageError("--calibration: serve takes one magnetometer profile (FILE), or none")
            }
            c.calibrationPath = v == "none" ? nil : v
        }
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
        let position = try PositionOptions(a)
        if let lat = position.latitude, let lon = position.longitude {
            guard a.string("gpsd") == nil else { throw UsageError("give --lat/--lon or --gpsd, not both") }
            c.position = .fixed(latitude: lat, longitude: lon, height: position.height)
        } else if a.string("alt-m") != nil {
            throw UsageError("--alt-m goes with --lat and --lon")
        }
        if let text = a.string("gpsd") {
            c.position = .gpsd(try endpoint(text, "gpsd", host: "localhost", port: 2947))
        }
        if let v = try a.double("max-fix-age") {
            guard v > 0 else { throw UsageError("--max-fix-age must be > 0 seconds, got \(v)") }
            c.maxFixAge = v
        }
        if let t = position.fixedTime { c.modelDate = t }
        if let m = a.string("model") { c.model = m.hasPrefix("wmmhr") ? .wmmhr : .wmm }
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
}
