import LodestoneCalibration
import LodestoneJSON

/// Which calibration profiles the pipeline applies: `--calibration` of `replay`,
/// `evaluate`, `watch`, `record` and `serve`, and `serve`'s config key.
///
/// - `automatic` (no flag): the profiles in the store's directory (`calibration/`)
///   named after the source's devices (``CalibrationProfileStore``), when they
///   exist. They must be valid and made for that device; a bad one is an error,
///   never skipped.
/// - `none` (`--calibration none`): raw readings.
/// - `files`: one profile per sensor, any order. A file's device identity
///   must not contradict the source's, when both are known.
public enum CalibrationChoice: Hashable, Sendable {
    case automatic
    case none
    case files([String])

    /// A profile chosen for one sensor, and where it came from.
    public struct Loaded: Hashable, Sendable {
        public var path: String
        public var profile: CalibrationProfile
        /// Found by the device's name, not given explicitly.
        public var automatic: Bool

        /// `using the matching calibration calibration/x.json (magnetometer, full model, …)`.
        public var note: String {
            "\(automatic ? "using the matching" : "using") calibration \(path) (\(profile.summary))"
        }
    }

    /// The profiles for a source's magnetometer and accelerometer.
    public struct Selection: Hashable, Sendable {
        public var magnetometer: Loaded?
        public var accelerometer: Loaded?

        public init(magnetometer: Loaded? = nil, accelerometer: Loaded? = nil) {
            self.magnetometer = magnetometer
            self.accelerometer = accelerometer
        }

        /// What is applied, one note per profile.
        public var notes: [String] { [magnetometer, accelerometer].compactMap { $0?.note } }
    }

    /// A choice that cannot be right whatever the files hold.
    public struct UsageProblem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `none`, `FILE` or `MAGNETOMETER_FILE,ACCELEROMETER_FILE` (either order).
    public init(argument text: String) throws(UsageProblem) {
        if text == "none" {
            self = .none
            return
        }
        let paths = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !paths.isEmpty, paths.count <= 2, paths.allSatisfy({ !$0.isEmpty }) else {
            throw UsageProblem(description: "takes FILE, or MAGNETOMETER_FILE,ACCELEROMETER_FILE, or none; got '\(text)'")
        }
        self = .files(paths)
    }

    /// Loads and checks the profiles for `devices`. Throws ``CalibrationFileError``
    /// for a file that cannot be used, ``UsageProblem`` for two files of one sensor.
    public func load(for devices: SourceDevices, store: CalibrationProfileStore = CalibrationProfileStore()) throws -> Selection {
        var selection = Selection()
        switch self {
        case .none:
            break
        case .automatic:
            for sensor in CalibrationProfile.SensorKind.allCases {
                guard let device = devices.identity(of: sensor),
                      let (path, profile) = try store.automaticProfile(for: device, sensor: sensor) else { continue }
                let loaded = Loaded(path: path, profile: profile, automatic: true)
                if sensor == .magnetometer { selection.magnetometer = loaded } else { selection.accelerometer = loaded }
            }
        case .files(let paths):
            for path in paths {
                let profile = try CalibrationProfileStore.load(path: path)
                if let device = devices.identity(of: profile.sensor) {
                    try CalibrationProfileStore.check(profile, at: path, against: device)
                }
                let loaded = Loaded(path: path, profile: profile, automatic: false)
                let sensor = profile.sensor.rawValue
                if profile.sensor == .magnetometer {
                    if let first = selection.magnetometer {
                        throw UsageProblem(description: "\(first.path) and \(path) are both \(sensor) profiles; give one per sensor")
                    }
                    selection.magnetometer = loaded
                } else {
                    if let first = selection.accelerometer {
                        throw UsageProblem(description: "\(first.path) and \(path) are both \(sensor) profiles; give one per sensor")
                    }
                    selection.accelerometer = loaded
                }
            }
        }
        return selection
    }
}

extension CalibrationProfile {
    /// `magnetometer, full model, grade good, fit error 0.46 %, made 2026-11-30T04:30:00Z, for hmc5883l at local:`.
    public var summary: String {
        let percent = JSONLineBuilder(capacity: 64)
        percent.appendNumber(quality.fitErrorPercent, decimals: 2)
        var s = "\(sensor.rawValue), \(quality.model.rawValue) model, grade \(quality.grade.rawValue), fit error \(percent.text) %, made \(created)"
        if !device.isAnonymous { s += ", for \(device.summary)" }
        return s
    }
}
