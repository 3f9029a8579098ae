import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore

/// The heading-pipeline options shared by `replay`, `watch` and `serve`.
struct PipelineOptions {
    static let options: [CommandLineOption] = [
        .value("heading-filter", "DEG", "Deliver a heading only after it moved this many degrees (default 1; 0 = every sample)."),
        .value("forward", "AXIS", "Body axis whose heading is reported: +y (default), +x, -y, -x."),
        .flag("no-smoothing", "Report the per-sample heading without smoothing (compass mode)."),
        .value("fusion", "MODE", "auto (default: gyro fusion when the log has a gyroscope), ecompass or ahrs."),
        .value("calibration", "FILE[,FILE]",
               "Calibration profile(s) to apply: a magnetometer and/or an accelerometer profile. Default: the profiles in calibration/ made for this device, if any; 'none' applies none."),
    ]

    var estimator = HeadingEstimator.Settings()
    var headingFilter = 1.0
    var calibration = CalibrationChoice.automatic
    /// The magnetometer profile `loadCalibration` applied, and its file.
    private(set) var magnetometerProfile: CalibrationChoice.Loaded?

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        if let f = try arguments.double("heading-filter") {
            guard f >= 0 else { throw UsageError("--heading-filter must be ≥ 0 degrees, got \(f)") }
            headingFilter = f
        }
        if let text = arguments.string("forward") {
            guard let axis = ForwardAxis(argument: text) else {
                throw UsageError("--forward must be one of +y, +x, -y, -x; got '\(text)'")
            }
            estimator.forwardAxis = axis
        }
        if arguments.flag("no-smoothing") { estimator.smoothing = nil }
        if let text = arguments.string("fusion") {
            guard let mode = FusionMode(rawValue: text) else {
                throw UsageError("--fusion must be auto, ecompass or ahrs; got '\(text)'")
            }
            estimator.fusion = mode
        }
        if let text = arguments.string("calibration") {
            do {
                calibration = try CalibrationChoice(argument: text)
            } catch {
                throw UsageError("--calibration \(error)")
            }
        }
    }

    /// Loads the calibration for a source made by `devices` (see
    /// `CalibrationChoice`): sets the magnetometer correction and its status on
    /// `estimator`, and returns the accelerometer correction to apply at the
    /// source (`CalibratedSource`), or nil. Says on stderr what it applied.
    mutating func loadCalibration(for devices: SourceDevices) throws -> AccelerometerCalibration? {
        let loaded: CalibrationChoice.Selection
        do {
            loaded = try calibration.load(for: devices)
        } catch let problem as CalibrationChoice.UsageProblem {
            throw UsageError("--calibration: \(problem)")
        }
        magnetometerProfile = loaded.magnetometer
        if let magnetometer = loaded.magnetometer {
            estimator.calibration = magnetometer.profile.magneticCalibration ?? .identity
            estimator.calibrationStatus = magnetometer.profile.calibrationStatus
        }
        for note in loaded.notes { Console.note("lodestone: " + note) }
        return loaded.accelerometer?.profile.accelerometerCalibration
    }

    func makePipeline() -> HeadingPipeline {
        HeadingPipeline(settings: estimator, headingFilter: headingFilter)
    }

    /// Hard-iron tracking from the loaded magnetometer profile (call after
    /// `loadCalibration`) when `enabled` (`--auto-calibrate`); says on stderr what it follows.
    func makeAutoCalibration(enabled: Bool) -> AutoCalibrationRun? {
        guard enabled else { return nil }
        let run = AutoCalibrationRun(profile: magnetometerProfile, calibration: estimator.calibration)
        Console.note(run.startNote)
        return run
    }
}
