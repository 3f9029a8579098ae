import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore

/// Online hard-iron tracking in a session (`--auto-calibrate`, `autoCalibrate`):
/// ``AutoCalibration`` started from the calibration in use, fed every raw reading.
///
/// When it adopts a new offset the session's pipeline takes it at once; the
/// profile file it came from (explicit or matched) is rewritten atomically, only
/// over the profile the update started from, and a `calibrationUpdated` event
/// says what changed and whether the file was written. Without a profile file
/// the update stays in memory. Saving is the host's choice of thread: at once
/// (the CLI), or later, off the sample path (the service).
struct HardIronTracking: Sendable {
    var calibration: AutoCalibration
    /// The magnetometer profile's file; nil when none is in use.
    let path: String?

    init(_ start: SessionCalibration) {
        calibration = AutoCalibration(profile: start.magnetometerProfile?.profile, calibration: start.magnetometer)
        path = start.magnetometerProfile?.path
    }

    /// What is tracked and where updates go.
    var startNote: String {
        path.map { "hard-iron tracking is on: updates are written to \($0)" }
            ?? "hard-iron tracking is on without a calibration profile: updates are kept in memory only"
    }
}

/// An update adopted by hard-iron tracking, waiting to be saved and announced.
public struct CalibrationUpdate: Sendable {
    public var adoption: AutoCalibration.Adoption
    /// The profile file it rewrites; nil when none is in use.
    public var path: String?
    /// Sample time of the reading that completed it.
    public var timestamp: Double

    /// Writes the profile (atomically, only over the profile it started from) and
    /// returns the `calibrationUpdated` event that says what happened.
    public func save(options: AtomicFile.Options = AtomicFile.Options()) -> (event: HeadingEvent, saved: Bool) {
        let result = adoption.save(to: path, options: options)
        let detail = adoption.update.detail + "; " + result.sentence
        return (HeadingEvent(.calibrationUpdated, .hardIronTracking, detail, timestamp: timestamp), result.isSaved || path == nil)
    }
}
