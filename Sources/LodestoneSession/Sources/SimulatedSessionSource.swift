import LodestoneCalibrationStore
import LodestoneCore
import LodestoneSimulation

/// The simulated board for demos: the demo motion with typical sensor noise,
/// repeated forever (a new noise seed each round), paced in real time. Clearly
/// labelled as simulated.
public final class SimulatedSessionSource: SessionSource {
    public let settings: SimulatedSettings
    private var recording: SyntheticRecording
    private var offset = 0.0
    private var round: UInt64 = 1
    public let label = "simulated"
    public let pacing: Double? = 1
    public let hasQueuedSample = false
    public let hasGyroscope: Bool? = true
    public let startWallClock: Double? = nil
    public let calibrationDevices = SourceDevices()

    public init(_ settings: SimulatedSettings) {
        self.settings = settings
        recording = Self.make(settings, seed: 1)
    }

    static func make(_ s: SimulatedSettings, seed: UInt64) -> SyntheticRecording {
        SyntheticRecording(profile: .demo, rate: s.rate, errors: .typical, includesGyroscope: true, seed: seed)
    }

    /// The board's true attitude at sample time `time` of the current round, body → ENU
    /// with north = magnetic north (for demos and tests that compare).
    public func attitude(at time: Double) -> Quaternion {
        recording.profile.attitude(at: max(0, time - offset))
    }

    public var devices: [DeviceDescription] {
        [DeviceDescription(kind: "simulated", path: "simulated", name: "SyntheticRecording", rate: settings.rate,
                           detail: "a SIMULATED board (demo motion, typical noise), not a sensor")]
    }

    public func nextSample() throws -> SensorSample? {
        if var s = recording.nextSample() {
            s.time += offset
            return s
        }
        offset += recording.profile.duration + 1 / settings.rate
        round += 1
        recording = Self.make(settings, seed: round)
        return try nextSample()
    }

    public func release() {}
}
