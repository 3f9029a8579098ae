import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs

/// `--auto-calibrate` in `replay` and `watch`: online hard-iron tracking
/// (`AutoCalibration`) beside the stream's pipeline. When it adopts a new
/// offset, the pipeline takes it at once, a `calibrationUpdated` event says
/// what changed, and the profile file it came from (explicit or matched) is
/// rewritten atomically, unless the file changed meanwhile. Without a profile
/// file the update stays in memory and the event says so.
struct AutoCalibrationRun {
    static let option = CommandLineOption.flag(
        "auto-calibrate",
        "Follow a changed hard iron from the readings of normal use (off by default): when recent data clearly fit a new offset, use it, report it, and update the profile file.")

    private(set) var calibration: AutoCalibration
    /// Where the magnetometer profile came from; nil when none is in use.
    let path: String?
    /// Write options (`LODESTONE_TEST_WRITE_PAUSE` slows the write down, for tests).
    var writeOptions = CalibrateCommand.writeOptions()

    init(profile: CalibrationChoice.Loaded?, calibration start: MagneticCalibration) {
        calibration = AutoCalibration(profile: profile?.profile, calibration: start)
        path = profile?.path
    }

    /// What is tracked and where updates go, for standard error at the start.
    var startNote: String {
        guard let path else {
            return "lodestone: --auto-calibrate: no calibration profile in use; hard-iron updates will be kept in memory only"
        }
        return "lodestone: --auto-calibrate: following the hard iron of \(path); updates are written to it"
    }

    /// Offers one raw sample; on an update, switches `pipeline` and appends the event to `json`.
    mutating func process(_ field: Vector3, time: Double, unixTime: Double, pipeline: inout HeadingPipeline,
                          json: JSONLineBuilder) {
        guard let adoption = calibration.add(field, time: time, unixTime: unixTime) else { return }
        pipeline.replaceCalibration(adoption.calibration, status: adoption.status)
        let result = adoption.save(to: path, options: writeOptions)
        let detail = adoption.update.detail + "; " + result.sentence
        json.appendEvent("calibrationUpdated", reason: "hardIronTracking", detail: detail, timestamp: time)
        if !result.isSaved, path != nil { Console.error("calibration update at \(time) s: \(result.sentence)") }
    }
}
