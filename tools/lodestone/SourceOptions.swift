import LodestoneCommandLine
import LodestoneCore
import LodestoneIIO
#if canImport(Glibc)
import Glibc
#endif

/// The sensor-source options shared by `watch` and `record` (and later `calibrate`, `serve`).
struct SourceOptions {
    static let options: [CommandLineOption] = [
        .value("uri", "URI", "libiio context: local: (default), ip:HOST[:PORT] (iiod), usb:…, serial:…"),
        .value("magn", "DEV", "Use this magnetometer: a device id (iio:device2), name (lis3mdl) or label."),
        .value("accel", "DEV", "Use this accelerometer (id, name or label)."),
        .value("gyro", "DEV", "Use this gyroscope (id, name or label); by default one is read when found."),
        .value("mode", "MODE", "auto (default: buffered when every device can), buffered or polled."),
        .value("rate", "HZ", "Sample rate (default 50): each device gets the nearest rate it offers; the polling rate in polled mode."),
        .value("board-rotation", "ROT", "How the board is mounted beyond its mount matrices (device → body): degrees about z (90), or a matrix 'a, b, c; d, e, f; g, h, i'."),
    ]

    var configuration = IIOSourceConfiguration()

    /// True when any source option was given (commands that can also read a log refuse the mix).
    static func given(_ arguments: CommandLineArguments) -> Bool {
        options.contains { arguments.string($0.name) != nil }
    }

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        if let uri = arguments.string("uri") {
            guard !uri.isEmpty else { throw UsageError("--uri needs a libiio URI such as local: or ip:192.168.1.20") }
            configuration.uri = uri
        }
        configuration.magnetometerDevice = arguments.string("magn")
        configuration.accelerometerDevice = arguments.string("accel")
        configuration.gyroscopeDevice = arguments.string("gyro")
        if let text = arguments.string("mode") {
            guard let mode = IIOCaptureMode(rawValue: text) else {
                throw UsageError("--mode must be auto, buffered or polled; got '\(text)'")
            }
            configuration.mode = mode
        }
        if let rate = try arguments.double("rate", in: 0.1...100_000) { configuration.rate = rate }
        if let text = arguments.string("board-rotation") {
            guard let m = BoardRotation.parse(text) else {
                throw UsageError("--board-rotation must be degrees about z (e.g. 90) or a rotation matrix 'a, b, c; d, e, f; g, h, i'; got '\(text)'")
            }
            configuration.boardRotation = m
        }
    }

    /// Opens the source, turning configuration errors into exit codes and advice.
    func open() throws -> IIOSensorSource {
        do {
            return try IIOSensorSource(configuration: configuration)
        } catch {
            throw CommandFailure(error.exitCode, error.description + error.hint(uri: configuration.uri))
        }
    }
}

extension IIOSourceError {
    /// 3 when a device cannot be opened (missing, forbidden, unreachable), 4 when a sensor fails.
    var exitCode: ExitCode {
        switch self {
        case .contextUnavailable, .sensorNotFound, .pinnedDeviceNotFound, .permissionDenied: return .inaccessible
        case .io, .timeout, .unsupported: return .failure
        }
    }

    /// A short code for the `reason` of a `sourceFault` event.
    var reasonCode: String {
        switch self {
        case .contextUnavailable: return "contextUnavailable"
        case .sensorNotFound, .pinnedDeviceNotFound: return "sensorNotFound"
        case .permissionDenied: return "permissionDenied"
        case .io: return "ioError"
        case .timeout: return "noData"
        case .unsupported: return "unsupported"
        }
    }

    /// A pointer to the simulated boards when the local machine has no IIO sensors at all.
    func hint(uri: String) -> String {
        guard uri == "local:" else { return "" }
        switch self {
        case .contextUnavailable(_, let e) where e == ENOENT:
            return "\nThis machine has no /sys/bus/iio (no IIO drivers loaded). To try Lodestone without hardware, run it on a simulated board: sudo lodestone simulated-board mpu9250 -- lodestone watch"
        case .sensorNotFound(_, _, _, let found) where found.isEmpty:
            return "\nTo try Lodestone without hardware, run it on a simulated board: sudo lodestone simulated-board mpu9250 -- lodestone watch"
        default:
            return ""
        }
    }
}
