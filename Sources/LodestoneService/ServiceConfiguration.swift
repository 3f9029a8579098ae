import LodestoneCalibrationStore
import LodestoneCore
import LodestoneGeomagnetism

/// Everything `lodestone serve` needs: where samples come from, how headings
/// are made, where the board is, and whom to serve.
///
/// Built from defaults, then a JSON config file (``ServiceConfiguration/applying(json:origin:baseDirectory:)``),
/// then command-line flags; ``validate()`` checks the whole before use.
public struct ServiceConfiguration: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        case iio(IIO)
        case replay(Replay)
        case simulated(Simulated)

        /// The name used in config files and in `--source`.
        public var kind: String {
            switch self {
            case .iio: return "iio"
            case .replay: return "replay"
            case .simulated: return "simulated"
            }
        }
    }

    /// IIO sensors through libiio; the device pins mirror `--uri --magn --accel --gyro --mode --rate --board-rotation`.
    public struct IIO: Hashable, Sendable {
        public var uri = "local:"
        public var magnetometer: String?
        public var accelerometer: String?
        public var gyroscope: String?
        /// `auto`, `buffered` or `polled`.
        public var mode = "auto"
        /// Sample rate, Hz.
        public var rate = 100.0
        /// Device → body rotation as given (`90`, or a matrix `"a,b,c; d,e,f; g,h,i"`); nil for none.
        public var boardRotation: String?

        public init() {}
    }

    /// A recorded log, paced by its own timestamps.
    public struct Replay: Hashable, Sendable {
        public var path: String
        /// Start again at the end (log time keeps increasing).
        public var loop = false
        /// Log seconds per wall-clock second; nil replays as fast as possible.
        public var speed: Double? = 1

        public init(path: String) {
            self.path = path
        }
    }

    /// A simulated board (``SyntheticRecording`` of the demo motion), paced in real time. For demos.
    public struct Simulated: Hashable, Sendable {
        public var rate = 100.0

        public init() {}
    }

    public enum Position: Hashable, Sendable {
        /// No position: `trueHeading` stays null.
        case none
        /// A fixed position: degrees, and metres above the WGS 84 ellipsoid.
        case fixed(latitude: Double, longitude: Double, height: Double)
        /// Fixes from gpsd.
        case gpsd(Endpoint)
    }

    public enum Model: String, Hashable, Sendable, CaseIterable {
        case wmm
        case wmmhr

        public var model: GeomagneticModel { self == .wmm ? .wmm2025 : .wmmhr2025 }
    }

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

    /// Protection against clients that misbehave.
    public struct Limits: Hashable, Sendable {
        /// Connected protocol clients (and NMEA TCP clients, counted separately) at most.
        public var maxClients = 32
        /// Longest command line a client may send, bytes.
        public var maxLineLength = 1024
        /// Unsent output kept per client, bytes; beyond it the oldest lines are dropped.
        public var clientQueueBytes = 65536

        public init() {}
    }

    public static let defaultSocketPath = "/run/lodestone/lodestone.sock"
    public static let defaultGPSD = Endpoint(host: "localhost", port: 2947)
    public static let defaultNMEAPort: UInt16 = 10110

    public var source: Source = .iio(IIO())
    public var forwardAxis: ForwardAxis = .default
    public var smoothing = true
    /// `auto` fuses a gyroscope when the source has one.
    public var fusion: FusionMode = .auto
    /// The calibration profiles to apply (see `calibration/README.md`): by default the
    /// magnetometer's and the accelerometer's in `calibration/` (relative to the working
    /// directory) made for the devices the source opened, as the CLI does.
    public var calibration: CalibrationChoice = .automatic
    /// Online hard-iron tracking (`HardIronTracker`): follow a changed hard iron from
    /// the readings of normal use and rewrite the profile file. Off by default.
    public var autoCalibrate = false
    /// The headingFilter of a watcher that does not give one, degrees.
    public var headingFilter = 1.0
    public var position: Position = .none
    /// A gpsd fix older than this (seconds) no longer counts: `trueHeading` turns null.
    public var maxFixAge = 10.0
    /// Model date as Unix time; nil takes it from the clock.
    public var modelDate: Double?
    public var model: Model = .wmm
    public var allowExtrapolation = false
    /// Unix socket path; nil for none.
    public var socketPath: String? = ServiceConfiguration.defaultSocketPath
    public var socketMode: UInt32 = 0o660
    /// TCP listeners for the client protocol (off by default).
    public var tcpListeners: [Endpoint] = []
    public var nmea = NMEA()
    public var limits = Limits()

    public init() {}

    /// Checks values that depend on each other and ranges not checked while parsing.
    public func validate() throws(ConfigurationError) {
        switch source {
        case .iio(let s):
            guard ["auto", "buffered", "polled"].contains(s.mode) else {
                throw ConfigurationError(key: "source.mode", "must be auto, buffered or polled, not '\(s.mode)'")
            }
            guard s.rate.isFinite, s.rate > 0, s.rate <= 10_000 else {
                throw ConfigurationError(key: "source.rate", "must be between 0 and 10000 Hz, not \(s.rate)")
            }
            guard !s.uri.isEmpty else { throw ConfigurationError(key: "source.uri", "must not be empty (e.g. local: or ip:192.168.1.20)") }
        case .replay(let r):
            guard !r.path.isEmpty else { throw ConfigurationError(key: "source.path", "must name a log file") }
            if let speed = r.speed, !(speed.isFinite && speed > 0) {
                throw ConfigurationError(key: "source.speed", "must be a number > 0, or \"max\" for as fast as possible")
            }
        case .simulated(let s):
            guard s.rate.isFinite, s.rate >= 1, s.rate <= 1000 else {
                throw ConfigurationError(key: "source.rate", "must be between 1 and 1000 Hz, not \(s.rate)")
            }
        }
        guard headingFilter.isFinite, headingFilter >= 0 else {
            throw ConfigurationError(key: "headingFilter", "must be a number of degrees ≥ 0, not \(headingFilter)")
        }
        if case .fixed(let lat, let lon, let h) = position {
            guard lat.isFinite, (-90...90).contains(lat) else { throw ConfigurationError(key: "position.lat", "must be between -90 and 90 degrees, not \(lat)") }
            guard lon.isFinite, (-180...360).contains(lon) else { throw ConfigurationError(key: "position.lon", "must be between -180 and 360 degrees, not \(lon)") }
            guard h.isFinite, (-10_000...1e7).contains(h) else { throw ConfigurationError(key: "position.altM", "must be between -10000 and 10000000 metres, not \(h)") }
        }
        guard maxFixAge.isFinite, maxFixAge > 0 else {
            throw ConfigurationError(key: "position.maxFixAge", "must be a number of seconds > 0, not \(maxFixAge)")
        }
        if let t = modelDate, !allowExtrapolation, !model.model.validity.contains(DecimalYear.from(unixTime: t)) {
            throw ConfigurationError(key: "date", "\(WallClockTime.iso8601(unixSeconds: t, fractionDigits: 0)) is outside \(model.model.name)'s validity \(model.model.validity.lowerBound)–\(model.model.validity.upperBound); allow extrapolation to accept a degraded result")
        }
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
        guard (1...1024).contains(limits.maxClients) else {
            throw ConfigurationError(key: "limits.maxClients", "must be between 1 and 1024, not \(limits.maxClients)")
        }
        guard (64...65536).contains(limits.maxLineLength) else {
            throw ConfigurationError(key: "limits.maxLineLength", "must be between 64 and 65536 bytes, not \(limits.maxLineLength)")
        }
        guard (4096...(64 << 20)).contains(limits.clientQueueBytes) else {
            throw ConfigurationError(key: "limits.clientQueueBytes", "must be between 4096 and 67108864 bytes, not \(limits.clientQueueBytes)")
        }
    }
}
