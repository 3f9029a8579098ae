import LodestoneCalibration
import LodestoneCalibrationStore

/// Online hard-iron tracking in the service (`autoCalibrate`, `--auto-calibrate`).
///
/// The sample thread feeds every raw reading to the tracker (in ``HubState``) and
/// switches the pipeline at once when it adopts a new offset; the event loop then
/// writes the profile file (atomically, only over the profile the update started
/// from) and sends watchers an `EVENT` `calibrationUpdated`. Without a profile
/// file the update is kept in memory until the service stops or reloads.
struct ServiceAutoCalibration: Sendable {
    var calibration: AutoCalibration
    /// The magnetometer profile's file; nil when none is in use.
    let path: String?

    /// An adopted update waiting to be saved and announced.
    struct Pending: Sendable {
        var adoption: AutoCalibration.Adoption
        var path: String?

        func save() -> CalibrationProfileStore.UpdateSaveResult { adoption.save(to: path) }
    }

    var startNote: String {
        path.map { "hard-iron tracking is on: updates are written to \($0)" }
            ?? "hard-iron tracking is on without a calibration profile: updates are kept in memory only"
    }
}
