import LodestoneCalibrationStore
import LodestoneCore
import LodestoneIIO

/// IIO sensors; released (devices closed, buffers disabled) while nobody needs them.
public final class IIOSessionSource: SessionSource, SensorHealthReporting {
    public let source: IIOSensorSource
    public let label = "iio"
    public let pacing: Double? = nil
    public let calibrationDevices: SourceDevices

    public convenience init(_ configuration: IIOSourceConfiguration) throws(SessionError) {
        do {
            self.init(opened: try IIOSensorSource(configuration: configuration))
        } catch {
            throw SessionError(error)
        }
    }

    /// Sensors already open.
    public init(opened source: IIOSensorSource) {
        self.source = source
        calibrationDevices = SourceDevices(iio: source)
    }

    public var devices: [DeviceDescription] {
        let m = source.metadata
        return ([m.magnetometer, m.accelerometer] + (m.gyroscope.map { [$0] } ?? [])).map { info in
            DeviceDescription(kind: info.kind.noun, path: info.deviceID, name: info.deviceName,
                              rate: info.samplingFrequency, detail: "\(m.uri) \(m.mode.rawValue)")
        }
    }

    public var hasQueuedSample: Bool { source.hasQueuedSample }
    public var hasGyroscope: Bool? { source.metadata.gyroscope != nil }
    public var startWallClock: Double? { source.startWallClock }
    public var healthSignature: UInt32 { source.healthSignature }
    public var healthProblems: [SensorProblem] { source.healthProblems }

    public func nextSample() throws -> SensorSample? {
        try source.nextSample()
    }

    public func release() {
        source.close()
    }
}
