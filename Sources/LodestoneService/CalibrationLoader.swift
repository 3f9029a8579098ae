import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore

/// Reads the magnetometer calibration profile named in the config (read again on SIGHUP),
/// with the same checks as every other command (`CalibrationProfileStore.load`).
enum CalibrationLoader {
    /// The correction and its quality, for the estimator settings.
    static func load(_ path: String) throws(ServiceError) -> (MagneticCalibration, CalibrationStatus?) {
        let profile: CalibrationProfile
        do {
            profile = try CalibrationProfileStore.load(path: path, sensor: .magnetometer)
        } catch {
            throw ServiceError(error.isAccessProblem ? .inaccessible : .badInput, "calibration: \(error)")
        }
        return (profile.magneticCalibration ?? .identity, profile.calibrationStatus)
    }
}
