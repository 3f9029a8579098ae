import FoundationEssentials
import LodestoneCalibration
import LodestoneCore

/// Reads the magnetometer calibration profile named in the config (read again on SIGHUP).
enum CalibrationLoader {
    /// The correction and its quality, for the estimator settings.
    static func load(_ path: String) throws(ServiceError) -> (MagneticCalibration, CalibrationStatus) {
        let text: String
        do {
            text = try FileText.read(path, limit: 1 << 20)
        } catch {
            throw ServiceError(.inaccessible, "calibration: \(path): cannot be read: \(error)")
        }
        let profile: CalibrationProfile
        do {
            profile = try CalibrationProfile(json: Data(text.utf8))
        } catch {
            throw ServiceError(.badInput, "calibration: \(path): \(error)")
        }
        guard let calibration = profile.magneticCalibration else {
            throw ServiceError(.badInput, "calibration: \(path) holds the \(profile.sensor.rawValue)'s profile; give the magnetometer's")
        }
        let q = profile.quality
        let status = CalibrationStatus(fitErrorPercent: q.fitErrorPercent,
                                       fieldStrength: q.expectedMagnitude ?? q.fittedMagnitude,
                                       created: WallClockTime.parse(profile.created),
                                       coveragePercent: q.coveragePercent)
        return (calibration, status)
    }
}
