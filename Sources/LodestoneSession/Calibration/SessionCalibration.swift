import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore

/// The calibration profiles a session applies, chosen for the source's devices
/// (``CalibrationChoice``, the same checks for every command and the service):
/// the magnetometer's correction and quality go to the estimator, the
/// accelerometer's correction to each sample before the estimator sees it.
public struct SessionCalibration: Sendable {
    public var magnetometer: MagneticCalibration = .identity
    public var status: CalibrationStatus?
    /// The magnetometer's profile and its file: where hard-iron tracking starts and what it rewrites.
    public var magnetometerProfile: CalibrationChoice.Loaded?
    public var accelerometer: AccelerometerCalibration?
    /// What was applied (one line per profile), or where none was found; for standard error or the log.
    public var notes: [String] = []

    public init() {}

    /// Loads the profiles `choice` names for `devices` from `store`.
    public static func load(_ choice: CalibrationChoice, for devices: SourceDevices,
                            store: CalibrationProfileStore = CalibrationProfileStore()) throws(SessionError) -> SessionCalibration {
        let selection: CalibrationChoice.Selection
        do {
            selection = try choice.load(for: devices, store: store)
        } catch let error as CalibrationFileError {
            throw SessionError(error)
        } catch let error as CalibrationChoice.UsageProblem {
            throw SessionError(.usage, "calibration: \(error)")
        } catch {
            throw SessionError(.badInput, "calibration: \(error)")
        }
        var c = SessionCalibration()
        if let m = selection.magnetometer {
            c.magnetometer = m.profile.magneticCalibration ?? .identity
            c.status = m.profile.calibrationStatus
            c.magnetometerProfile = m
        }
        c.accelerometer = selection.accelerometer?.profile.accelerometerCalibration
        c.notes = selection.notes
        if choice == .automatic { c.notes += missingProfileNotes(selection, devices: devices, store: store) }
        return c
    }

    /// Where the profiles of identified devices would be, when they are not there.
    private static func missingProfileNotes(_ selection: CalibrationChoice.Selection, devices: SourceDevices,
                                            store: CalibrationProfileStore) -> [String] {
        CalibrationProfile.SensorKind.allCases.compactMap { sensor in
            let loaded = sensor == .magnetometer ? selection.magnetometer : selection.accelerometer
            guard loaded == nil, let device = devices.identity(of: sensor), let path = store.path(for: device, sensor: sensor) else { return nil }
            return "no \(sensor.rawValue) calibration: \(path) does not exist (run 'lodestone calibrate' there\(sensor == .accelerometer ? " --sensor accelerometer" : ""))"
        }
    }

    /// A hard-iron update adopted while running: used from now on, and by an estimator made later.
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
