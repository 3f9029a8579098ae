import LodestoneCalibrationStore
import LodestoneCore

/// Where the service's samples come from, with what on-demand operation needs
/// beyond ``SensorSource``: releasing the sensors while nobody watches, and
/// saying how to pace the samples.
protocol ServiceSource: AnyObject {
    /// `iio`, `replay` or `simulated`, for DEVICES.
    var label: String { get }
    /// What `?DEVICES;` lists.
    var devices: [DeviceDescription] { get }
    /// The identity of the magnetometer and accelerometer, for finding and checking
    /// their calibration profiles (anonymous for a simulation).
    var calibrationDevices: SourceDevices { get }
    /// Log seconds per wall-clock second when the service must pace the samples
    /// itself (replays, simulation); nil when they come at their own pace
    /// (sensors) or as fast as possible.
    var pacing: Double? { get }
    /// The next sample is ready and ``next()`` will return it at once (the rest of an IIO
    /// buffer refill; a replay as fast as possible): the service then gathers the lines
    /// for each client and sends them together, one write per client instead of one per line.
    var hasQueuedSample: Bool { get }
    /// The next sample; nil at the end (a replay without loop). Reopens released sensors.
    func next() throws -> SensorSample?
    /// Stops reading: closes devices (iio-sensor-proxy's release). `next()` reopens.
    func release()
}
