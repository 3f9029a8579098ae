#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCommandLine
import LodestoneCore
import LodestoneHTTP
import LodestoneNetwork
import LodestoneSession

/// The command line of `lodestone serve`, shared by the `lodestone` CLI and the lean
/// daemon executable `lodestone-serve` it runs.
///
/// Why two executables: everything one executable links is mapped into every process
/// it starts. The CLI's other commands use full Foundation (several MB of resident
/// memory: docs/service.md); the daemon must stay small, so `lodestone serve` replaces itself (exec, same
/// PID) with `lodestone-serve`, which links only what the service needs: no Foundation at
/// all, not even FoundationEssentials (JSON is the package's own, `LodestoneJSON`).
public enum ServeCommandLine {
    public static let summary = "Run the heading service: JSON lines over a socket, gpsd's clients, NMEA 0183, D-Bus, a web view; on demand."
    public static let usage = "serve [--config FILE] [options]"
    public static let discussion = """
        Serves headings to clients over a Unix socket (default \(ServiceConfiguration.defaultSocketPath))
        and optionally TCP, with gpsd's style of protocol (see PROTOCOL.md):
          ?WATCH={"enable":true,"headingFilter":5};   stream HEADING objects
          ?WATCH={"enable":true,"heading":false,"location":true,"distanceFilter":10};
          ?POLL;  ?DEVICES;  ?VERSION;  ?STEER={"lat":52.5,"lon":13.4};  ?REGION;  ?TRACK;
        gpsd's clients (gpspipe, cgps, Python's gps) read ATT objects from a TCP listener such as
        --listen localhost:2947. --dbus offers the compass to GeoClue as iio-sensor-proxy does;
        --http 127.0.0.1:8080 serves a live web view. The sensors are read only while someone
        watches headings (a client, an NMEA consumer, a D-Bus claim, a browser).

        Sources: --source iio (default; libiio, --uri/--magn/--accel/--gyro/--mode/--rate/
        --board-rotation), --source replay:FILE (--loop, --speed X or max), or
        --source simulated (a SIMULATED board for demos, paced in real time).

        The config file (JSON; see docs/service.md and tools/lodestone.example.json) holds the
        same settings; flags override it. SIGHUP reloads the file and the calibration
        profiles (found again for the devices, by default); SIGTERM stops cleanly. Logs go to standard error (journald priorities
        under systemd); with NOTIFY_SOCKET set it speaks sd_notify (Type=notify).
        """

    public static let options: [CommandLineOption] = [
        .value("config", "FILE", "JSON config file (flags override its values)."),
    ] + HeadingFlags.sourceChoice + HeadingFlags.iio + HeadingFlags.pipeline + HeadingFlags.position + HeadingFlags.livePosition + [
        .value("socket", "PATH", "Unix socket path, or 'none' (default \(ServiceConfiguration.defaultSocketPath))."),
        .value("socket-mode", "MODE", "Octal file mode of the Unix socket (default 0660)."),
        .value("listen", "HOST:PORT", "Also serve the protocol on TCP (comma-separated list; loopback if no host)."),
        .value("nmea", "HOST:PORT", "NMEA 0183 TCP server (usual port 10110; loopback if no host)."),
        .value("nmea-serial", "PATH", "Also write NMEA sentences to this serial device."),
        .value("nmea-baud", "N", "Serial speed (default 4800)."),
        .value("nmea-rate", "HZ", "NMEA sentence groups per second (default 1)."),
        .value("max-clients", "N", "Unix-socket clients at most (default 32)."),
        .value("max-network-clients", "N", "Clients of each network listener (TCP, NMEA) at most (default 32)."),
        .value("http", "HOST:PORT", "Live web view (loopback if no host; port 0 picks a free one; 'none' for off)."),
        .flag("dbus", "Offer the compass on D-Bus as iio-sensor-proxy does (net.hadess.SensorProxy)."),
        .value("dbus-address", "ADDRESS", "D-Bus bus for --dbus (default the system bus), e.g. unix:path=/tmp/bus."),
        .value("regions-file", "PATH", "Where monitored regions are saved (default \(ServiceConfiguration.Location.defaultRegionsFile) in the working directory), or 'none' to keep them in memory only."),
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

    public static func endpoint(_ text: String, _ option: String, host: String, port: UInt16?) throws(UsageError) -> Endpoint {
        switch Endpoint.parse(text, defaultHost: host, defaultPort: port) {
        case .success(let e): return e
        case .failure(let e): throw UsageError("--\(option): \(e.message)")
        }
    }

    static func applyFlags(_ a: CommandLineArguments, to c: inout ServiceConfiguration) throws(UsageError) {
        try HeadingFlags.apply(a, to: &c.heading)
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
        if let v = try a.integer("max-network-clients", minimum: 1) { c.limits.maxNetworkClients = v }
        if let v = a.string("http") {
            if v == "none" {
                c.http = nil
            } else {
                switch ServiceConfiguration.httpEndpoint(v) {
                case .success(let e):
                    var settings = c.http ?? HTTPServerSettings()
                    settings.listen = e
                    c.http = settings
                case .failure(let e): throw UsageError("--http: \(e.message)")
                }
            }
        }
        if a.flag("dbus") { c.dbus.enable = true }
        if let v = a.string("dbus-address") {
            c.dbus.enable = true
            c.dbus.compass.bus = .address(v)
        }
        if let v = a.string("regions-file") { c.location.regionsFile = v == "none" ? nil : v }
    }
}
