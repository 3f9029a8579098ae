import LodestoneCommandLine
import LodestoneCore
import LodestoneIIO
import LodestoneSession
#if canImport(Glibc)
import Glibc
#endif

extension IIOSessionSource {
    /// Opens the IIO sensors of `configuration`, turning errors into exit codes and
    /// advice. The gyroscope is read unless the compass mode is asked for (`record`
    /// reads every sensor: `allSensors`).
    static func open(_ configuration: HeadingConfiguration, allSensors: Bool = false) throws -> IIOSessionSource {
        guard case .iio(var iio) = configuration.source else {
            throw CommandFailure(.usage, "this command reads IIO sensors")
        }
        iio.useGyroscope = allSensors || configuration.session.estimator.fusion != .ecompass || iio.gyroscopeDevice != nil
        do {
            return IIOSessionSource(opened: try IIOSensorSource(configuration: iio))
        } catch {
            throw CommandFailure(error.exitCode, error.description + error.hint(uri: iio.uri))
        }
    }
}

extension IIOSourceError {
    /// 3 when a device cannot be opened (missing, forbidden, unreachable), 4 when a sensor
    /// fails: the session's table.
    var exitCode: ExitCode { ExitCode(SessionError(self).kind) }

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
