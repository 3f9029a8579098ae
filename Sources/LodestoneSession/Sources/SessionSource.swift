import LodestoneCalibrationStore
import LodestoneCore

/// A source as a session's host needs it beyond ``SensorSource``: what it is,
/// which devices made the samples (for their calibration profiles), how to
/// pace it, and releasing the sensors while nobody needs them.
public protocol SessionSource: AnyObject, SensorSource {
    /// `iio`, `replay` or `simulated`, for DEVICES and messages.
    var label: String { get }
    /// What `?DEVICES;` lists.
    var devices: [DeviceDescription] { get }
    /// The identity of the magnetometer and accelerometer, for finding and checking
    /// their calibration profiles (anonymous for a simulation).
    var calibrationDevices: SourceDevices { get }
    /// Source seconds per second when the host must pace the samples itself
    /// (replays, simulation); nil when they come at their own pace (sensors) or as
    /// fast as possible.
    var pacing: Double? { get }
    /// The next sample is ready and returns at once (the rest of an IIO buffer refill,
    /// an unpaced replay): a host may gather its output and write it together.
    var hasQueuedSample: Bool { get }
    /// Whether the samples carry angular rate; nil until known.
    var hasGyroscope: Bool? { get }
    /// Unix seconds of sample time 0, when the source knows it (a device timestamp, a log's header).
    var startWallClock: Double? { get }
    /// Stops reading: closes devices (iio-sensor-proxy's release). The next read reopens.
    func release()
}

/// One sensor or input, as `?DEVICES;` lists it.
public struct DeviceDescription: Hashable, Sendable {
    /// `magnetometer`, `accelerometer`, `gyroscope`, `log` or `simulated`.
    public var kind: String
    /// IIO device id (`iio:device0`), log path, or `simulated`.
    public var path: String
    public var name: String?
    public var driver: String?
    /// Samples per second, when known.
    public var rate: Double?
    public var detail: String?

    public init(kind: String, path: String, name: String? = nil, driver: String? = nil, rate: Double? = nil, detail: String? = nil) {
        self.kind = kind
        self.path = path
        self.name = name
        self.driver = driver
        self.rate = rate
        self.detail = detail
    }
}
