import LodestoneCalibration

/// Who made the samples: the identity of the magnetometer and of the
/// accelerometer, for naming and matching calibration profiles. A source says
/// who it is: LodestoneSession makes one from a log's header
/// (`SourceDevices(log:)`) or from open IIO sensors (`SourceDevices(iio:)`).
public struct SourceDevices: Hashable, Sendable {
    public typealias Identity = CalibrationProfile.DeviceIdentity

    public var magnetometer: Identity?
    public var accelerometer: Identity?

    public init(magnetometer: Identity? = nil, accelerometer: Identity? = nil) {
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
    }

    public func identity(of sensor: CalibrationProfile.SensorKind) -> Identity? {
        sensor == .magnetometer ? magnetometer : accelerometer
    }
}
