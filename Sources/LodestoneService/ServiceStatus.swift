import LodestoneCalibrationStore
import LodestoneSession

/// What the service says about itself: the source and its devices, whether it
/// works, and whether the service is stopping. Set by the sample thread and the
/// event loop, read for `?DEVICES`, `?POLL` and new watchers.
struct ServiceStatus {
    var sourceLabel = ""
    var devices: [DeviceDescription] = []
    /// The identity of the source's sensors (set by the sample thread), to find their profiles again.
    var calibrationDevices = SourceDevices()
    /// Nil while the source works; else the event that says what is wrong.
    var sourceProblem: ServiceEvent?
    var sourceEnded = false
    var fatalError: ServiceError?
    var runnerFinished = false
    var stopping = false
    /// Wall-clock time the sensors were last claimed; nil while they are released (gpsd's `activated`).
    var activated: Double?
    /// Bumped by a reload that changes the source; the sample thread reopens it.
    var sourceGeneration = 0
    /// The source to open, and the session settings its profiles are chosen with.
    var configuration: HeadingConfiguration

    init(configuration: HeadingConfiguration) {
        self.configuration = configuration
    }
}
