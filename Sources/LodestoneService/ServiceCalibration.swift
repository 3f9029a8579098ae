import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore

/// The calibration the service applies, chosen as the CLI chooses it
/// (``CalibrationChoice``, the same checks): the magnetometer's correction and
/// quality go to the estimator, the accelerometer's correction to each sample
/// before the estimator sees it. Loaded at start, again on SIGHUP, and when a
/// reload opens another source.
struct ServiceCalibration: Sendable {
    var magnetometer: MagneticCalibration = .identity
    var status: CalibrationStatus?
    /// The magnetometer's profile and its file, where online hard-iron tracking starts
    /// and what it rewrites.
    var magnetometerProfile: CalibrationChoice.Loaded?
    var accelerometer: AccelerometerCalibration?
    /// What was applied (one line per profile), or where none was found; for the log.
    var notes: [String] = []

    static func load(_ choice: CalibrationChoice, for devices: SourceDevices,
                     store: CalibrationProfileStore = CalibrationProfileStore()) throws(ServiceError) -> ServiceCalibration {
        let selection: CalibrationChoice.Selection
        do {
            selection = try choice.load(for: devices, store: store)
        } catch let error as CalibrationFileError {
            throw ServiceError(error.isAccessProblem ? .inaccessible : .badInput, "calibration: \(error)")
        } catch {
            throw ServiceError(.badInput, "calibration: \(error)")
        }
        var c = ServiceCalibration()
        if let m = selection.magnetometer {
            c.magnetometer = m.profile.magneticCalibration ?? .identity
            c.status = m.profile.calibrationStatus
            c.magnetometerProfile = m
        }
        c.accelerometer = selection.accelerometer?.profile.accelerometerCalibration
        c.notes = selection.notes
        if choice == .automatic {
            for sensor in CalibrationProfile.SensorKind.allCases {
                let loaded = sensor == .magnetometer ? selection.magnetometer : selection.accelerometer
                guard loaded == nil, let device = devices.identity(of: sensor), let path = store.path(for: device, sensor: sensor) else { continue }
                c.notes.append("no \(sensor.rawValue) calibration: \(path) does not exist (run 'lodestone calibrate' there\(sensor == .accelerometer ? " --sensor accelerometer" : ""))")
            }
        }
        return c
    }

    /// Online hard-iron tracking that starts from this calibration.
    var autoCalibration: ServiceAutoCalibration {
        ServiceAutoCalibration(calibration: AutoCalibration(profile: magnetometerProfile?.profile, calibration: magnetometer),
                               path: magnetometerProfile?.path)
    }

    /// A hard-iron update adopted while running: used from now on, and at the next claim.
    mutating func adopt(_ adoption: AutoCalibration.Adoption) {
        magnetometer = adoption.calibration
        status = adoption.status
        if let profile = adoption.profile, magnetometerProfile != nil { magnetometerProfile!.profile = profile }
    }

    /// Sets the magnetometer's correction and quality on estimator settings.
    func apply(to settings: inout HeadingEstimator.Settings) {
        settings.calibration = magnetometer
        settings.calibrationStatus = status
    }
}
