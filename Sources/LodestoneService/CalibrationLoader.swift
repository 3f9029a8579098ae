import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore

/// Reads the magnetometer calibration profile named in the config (read again on SIGHUP),
/// with the same checks as every other command (`CalibrationProfileStore.load`).
enum CalibrationLoader {
    /// The correction and its quality, for the estimator settings.
    static func load(_ path: String) throws(ServiceError) -> (MagneticCalibration, CalibrationStatus?) {
        let profile = try self.profile(path)
        return (profile.magneticCalibration ?? .identity, profile.calibrationStatus)
    }

    /// The profile itself (online hard-iron tracking starts from it and rewrites it).
    static func profile(_ path: String) throws(ServiceError) -> CalibrationProfile {
        do {
            return try CalibrationProfileStore.load(path: path, sensor: .magnetometer)
        } catch {
            throw ServiceError(error.isAccessProblem ? .inaccessible : .badInput, "calibration: \(error)")
        }
    }
}
