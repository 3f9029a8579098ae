import LodestoneCalibrationStore
import LodestoneCore
import LodestoneIIO
import LodestoneLogs
import LodestoneSimulation

/// Makes the configured source, opening it at once so that a wrong device pin
/// or a missing log is reported at start-up, not when the first client comes.
enum ServiceSources {
    static func make(_ source: ServiceConfiguration.Source, fusion: FusionMode) throws(ServiceError) -> any ServiceSource {
        switch source {
        case .iio(let s): return try IIOServiceSource(s, useGyroscope: fusion != .ecompass)
        case .replay(let r): return try ReplayServiceSource(r)
        case .simulated(let s): return SimulatedServiceSource(s)
        }
    }
}

/// IIO sensors; released (devices closed, buffers disabled) while nobody watches.
final class IIOServiceSource: ServiceSource {
    let source: IIOSensorSource
    let label = "iio"
    let pacing: Double? = nil
    let calibrationDevices: SourceDevices

    init(_ s: ServiceConfiguration.IIO, useGyroscope: Bool) throws(ServiceError) {
        var rotation = Matrix3.identity
        if let text = s.boardRotation {
            guard let m = BoardRotation.parse(text) else {
                throw ServiceError(.badInput, "source.boardRotation: '\(text)' is not degrees about z nor a rotation matrix \"a,b,c; d,e,f; g,h,i\"")
            }
            rotation = m
        }
        let configuration = IIOSourceConfiguration(
            uri: s.uri, magnetometerDevice: s.magnetometer, accelerometerDevice: s.accelerometer,
            gyroscopeDevice: s.gyroscope, useGyroscope: useGyroscope || s.gyroscope != nil,
            mode: IIOCaptureMode(rawValue: s.mode) ?? .auto, rate: s.rate, boardRotation: rotation)
        do {
            source = try IIOSensorSource(configuration: configuration)
        } catch {
            throw ServiceError(error.isTransient ? .failure : .inaccessible, error.description)
        }
        calibrationDevices = SourceDevices(iio: source)
    }

    var devices: [DeviceDescription] {
        let m = source.metadata
        var list: [DeviceDescription] = []
        for info in [m.magnetometer, m.accelerometer] + (m.gyroscope.map { [$0] } ?? []) {
            list.append(DeviceDescription(kind: info.kind.noun, path: info.deviceID, name: info.deviceName,
                                          rate: info.samplingFrequency, detail: "\(m.uri) \(m.mode.rawValue)"))
        }
        return list
    }

    var hasQueuedSample: Bool { source.hasQueuedSample }

    func next() throws -> SensorSample? {
        try source.nextSample()
    }

    func release() {
        source.close()
    }
}

/// A recorded log. With `loop` it starts again at the end, log time continuing
/// (one sample period after the last), so the smoothing sees no jump back.
final class ReplayServiceSource: ServiceSource {
    let settings: ServiceConfiguration.Replay
    private var reader: LogReader
    private var offset = 0.0
    private var lastTime = 0.0
    private var period = 0.01
    let label = "replay"

    init(_ settings: ServiceConfiguration.Replay) throws(ServiceError) {
        self.settings = settings
        reader = try Self.open(settings.path)
    }

    static func open(_ path: String) throws(ServiceError) -> LogReader {
        do {
            // A paced replay reads a few kB per second: a 64 KiB buffer instead of 1 MiB of resident memory.
            return try LogReader(path: path, options: .init(bufferSize: 1 << 16))
        } catch {
            throw ServiceError(error.kind == .cannotOpen ? .inaccessible : .badInput, error.description)
        }
    }

    var pacing: Double? { settings.speed }

    /// Unpaced, the next line of the log is always ready.
    var hasQueuedSample: Bool { settings.speed == nil }

    /// As `lodestone replay` finds them: from the device recorded in the log's header.
    var calibrationDevices: SourceDevices { SourceDevices(log: reader.metadata) }

    var devices: [DeviceDescription] {
        [DeviceDescription(kind: "log", path: settings.path, name: reader.format.rawValue, rate: reader.metadata?.rate,
                           detail: reader.metadata?.source.map { "recorded from \($0)" })]
    }

    func next() throws -> SensorSample? {
        if var s = try reader.nextSample() {
            s.time += offset
            if s.time > lastTime { period = min(1, s.time - lastTime) }
            lastTime = s.time
            return s
        }
        guard settings.loop, reader.sampleCount > 0 else { return nil }
        reader = try Self.open(settings.path)
        guard var s = try reader.nextSample() else { return nil }
        offset = lastTime + period - s.time
        s.time += offset
        lastTime = s.time
        return s
    }

    func release() {}
}

/// A simulated board for demos: the demo motion with typical sensor noise,
/// repeated forever, paced in real time. Clearly labelled as simulated.
final class SimulatedServiceSource: ServiceSource {
    let settings: ServiceConfiguration.Simulated
    private var recording: SyntheticRecording
    private var offset = 0.0
    private var round: UInt64 = 1
    let label = "simulated"
    let pacing: Double? = 1
    let hasQueuedSample = false
    let calibrationDevices = SourceDevices()

    init(_ settings: ServiceConfiguration.Simulated) {
        self.settings = settings
        recording = Self.make(settings, seed: 1)
    }

    static func make(_ s: ServiceConfiguration.Simulated, seed: UInt64) -> SyntheticRecording {
        SyntheticRecording(profile: .demo, rate: s.rate, errors: .typical, includesGyroscope: true, seed: seed)
    }

    var devices: [DeviceDescription] {
        [DeviceDescription(kind: "simulated", path: "simulated", name: "SyntheticRecording", rate: settings.rate,
                           detail: "a SIMULATED board (demo motion, typical noise), not a sensor")]
    }

    func next() throws -> SensorSample? {
        if var s = recording.nextSample() {
            s.time += offset
            return s
        }
        offset += recording.profile.duration + 1 / settings.rate
        round += 1
        recording = Self.make(settings, seed: round)
        return try next()
    }

    func release() {}
}
