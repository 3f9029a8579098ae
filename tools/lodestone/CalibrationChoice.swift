import LodestoneCalibration
import LodestoneCalibrationStore

/// Which calibration profiles the pipeline applies (`--calibration`).
///
/// - `automatic` (no flag): the profiles in `calibration/` named after the
///   source's devices (`CalibrationProfileStore`), when they exist. They must be
///   valid and made for that device; a bad one is an error, never skipped.
/// - `none` (`--calibration none`): raw readings.
/// - `files`: one profile per sensor, any order. A file's device identity
///   must not contradict the source's, when both are known.
enum CalibrationChoice: Equatable {
    case automatic
    case none
    case files([String])

    struct Loaded {
        var path: String
        var profile: CalibrationProfile
        var automatic: Bool
    }

    init(argument text: String) throws(UsageError) {
        if text == "none" {
            self = .none
            return
        }
        let paths = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !paths.isEmpty, paths.count <= 2, paths.allSatisfy({ !$0.isEmpty }) else {
            throw UsageError("--calibration takes FILE, or MAGNETOMETER_FILE,ACCELEROMETER_FILE, or none; got '\(text)'")
        }
        self = .files(paths)
    }

    func load(for devices: SourceDevices, store: CalibrationProfileStore = CalibrationProfileStore())
        throws -> (magnetometer: Loaded?, accelerometer: Loaded?) {
        var magnetometer: Loaded?, accelerometer: Loaded?
        switch self {
        case .none:
            break
        case .automatic:
            for sensor in CalibrationProfile.SensorKind.allCases {
                guard let device = devices.identity(of: sensor),
                      let (path, profile) = try store.automaticProfile(for: device, sensor: sensor) else { continue }
                let loaded = Loaded(path: path, profile: profile, automatic: true)
                if sensor == .magnetometer { magnetometer = loaded } else { accelerometer = loaded }
            }
        case .files(let paths):
            for path in paths {
                let profile = try CalibrationProfileStore.load(path: path)
                if let device = devices.identity(of: profile.sensor) {
                    try CalibrationProfileStore.check(profile, at: path, against: device)
                }
                let loaded = Loaded(path: path, profile: profile, automatic: false)
                if profile.sensor == .magnetometer {
                    guard magnetometer == nil else { throw UsageError("--calibration: \(magnetometer!.path) and \(path) are both magnetometer profiles; give one per sensor") }
                    magnetometer = loaded
                } else {
                    guard accelerometer == nil else { throw UsageError("--calibration: \(accelerometer!.path) and \(path) are both accelerometer profiles; give one per sensor") }
                    accelerometer = loaded
                }
            }
        }
        return (magnetometer, accelerometer)
    }
}

extension CalibrationProfile {
    /// `magnetometer, full model, grade good, fit error 0.46 %, made 2026-11-30T04:30:00Z, for hmc5883l at local:`.
    var summary: String {
        var s = "\(sensor.rawValue), \(quality.model.rawValue) model, grade \(quality.grade.rawValue), fit error \(Format.fixed(quality.fitErrorPercent, 2)) %, made \(created)"
        if !device.isAnonymous { s += ", for \(device.summary)" }
        return s
    }
}
