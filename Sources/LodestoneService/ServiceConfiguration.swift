import LodestoneCalibrationStore
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneHTTP
import LodestoneNetwork
import LodestoneSession

/// Everything `lodestone serve` needs: the heading session's configuration
/// (the same type the CLI uses: where samples come from, how headings are made,
/// where the board is), and whom to serve.
///
/// Built from defaults, then a JSON config file (``ServiceConfiguration/applying(json:baseDirectory:)``),
/// then command-line flags; ``validate()`` checks the whole before use.
public struct ServiceConfiguration: Hashable, Sendable {
    /// NMEA 0183 heading output.
    public struct NMEA: Hashable, Sendable {
        /// TCP server for NMEA clients (OpenCPN, Signal K, gpsd); nil for none.
        public var listen: Endpoint?
        /// A serial device (or pty) to write sentences to; nil for none.
        public var serial: String?
        public var baud = 4800
        /// Sentence groups per second.
        public var rate = 1.0
        /// Talker ID; `HC` (magnetic compass) is what NMEA 0183 assigns to a compass.
        public var talker = "HC"

        public init() {}
    }

    /// Protection against clients that misbehave. Each listener has its own client
    /// limit, so that network peers cannot take the slots of local clients.
    public struct Limits: Hashable, Sendable {
        /// Clients of the Unix socket at most.
        public var maxClients = 32
        /// Clients of each network listener at most: the protocol's TCP listeners together, and the NMEA server.
        public var maxNetworkClients = 32
        /// Longest command line a client may send, bytes.
        public var maxLineLength = 1024
        /// Unsent output kept per client, bytes; beyond it the oldest lines are dropped.
        public var clientQueueBytes = 65536
        /// Seconds after which a client is closed that neither watches nor sent a command,
        /// or that read nothing while output waited for it (gpsd's NOREAD_TIMEOUT is 3 minutes).
        public var idleTimeout = 180.0

        public init() {}

        public static let clientCounts = 1...1024
        public static let idleTimeouts = 1.0...86_400
    }

    public static let defaultSocketPath = "/run/lodestone/lodestone.sock"
    public static let defaultNMEAPort: UInt16 = 10110

    /// The heading session: source, pipeline, calibration, position (the CLI's too).
    public var heading = HeadingConfiguration()
    /// Unix socket path; nil for none.
    public var socketPath: String? = ServiceConfiguration.defaultSocketPath
    public var socketMode: UInt32 = 0o660
    /// TCP listeners for the client protocol (off by default).
    public var tcpListeners: [Endpoint] = []
    public var nmea = NMEA()
    public var limits = Limits()
    /// The desktop's compass on D-Bus (off by default).
    public var dbus = DBus()
    /// The live view; nil when off (the default).
    public var http: HTTPServerSettings?
    /// Regions and tracks (`LocationConfiguration.swift`).
    public var location = Location()

    public init() {}

    /// Checks values that depend on each other and ranges not checked while parsing.
    public func validate() throws(ConfigurationError) {
        try heading.validate()
        try location.validate()
        if let path = socketPath {
            guard !path.isEmpty else { throw ConfigurationError(key: "socket", "must be a path, or null for no Unix socket") }
            guard path.utf8.count < 108 else { throw ConfigurationError(key: "socket", "the path is \(path.utf8.count) bytes; a Unix socket path must be shorter than 108") }
        }
        guard socketMode <= 0o777 else { throw ConfigurationError(key: "socketMode", "must be an octal mode such as \"0660\"") }
        guard socketPath != nil || !tcpListeners.isEmpty else {
            throw ConfigurationError(key: "socket", "no listener: give a Unix socket path or a TCP listener (listen)")
        }
        guard nmea.rate.isFinite, nmea.rate > 0, nmea.rate <= 50 else {
            throw ConfigurationError(key: "nmea.rate", "must be between 0 and 50 sentence groups per second, not \(nmea.rate)")
        }
        guard nmea.talker.utf8.count == 2, nmea.talker.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw ConfigurationError(key: "nmea.talker", "must be two upper-case letters such as HC, not '\(nmea.talker)'")
        }
        guard NMEASerialSpeed.isSupported(nmea.baud) else {
            throw ConfigurationError(key: "nmea.baud", "must be one of \(NMEASerialSpeed.supported.map(String.init).joined(separator: ", ")), not \(nmea.baud)")
        }
        if let s = nmea.serial, s.isEmpty { throw ConfigurationError(key: "nmea.serial", "must be a device path such as /dev/ttyUSB0") }
        guard Limits.clientCounts.contains(limits.maxClients) else {
            throw ConfigurationError(key: "limits.maxClients", "must be between 1 and 1024, not \(limits.maxClients)")
        }
        guard Limits.clientCounts.contains(limits.maxNetworkClients) else {
            throw ConfigurationError(key: "limits.maxNetworkClients", "must be between 1 and 1024, not \(limits.maxNetworkClients)")
        }
        guard limits.idleTimeout.isFinite, Limits.idleTimeouts.contains(limits.idleTimeout) else {
            throw ConfigurationError(key: "limits.idleTimeout", "must be between 1 and 86400 seconds, not \(limits.idleTimeout)")
        }
        guard (64...65536).contains(limits.maxLineLength) else {
            throw ConfigurationError(key: "limits.maxLineLength", "must be between 64 and 65536 bytes, not \(limits.maxLineLength)")
        }
        guard (4096...(64 << 20)).contains(limits.clientQueueBytes) else {
            throw ConfigurationError(key: "limits.clientQueueBytes", "must be between 4096 and 67108864 bytes, not \(limits.clientQueueBytes)")
        }
        try validateListeners()
    }
}
