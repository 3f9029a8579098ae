/// What `lodestone devices` lists: each IIO device with the sensors Lodestone
/// recognises on it. Codable for `--json`.
public struct IIODeviceInfo: Codable, Sendable, Hashable {
    public var id: String
    public var name: String?
    public var label: String?
    public var isTrigger: Bool
    /// Input channel ids as libiio names them (`magn_x`, `timestamp`, …).
    public var channels: [String]
    public var sensors: [IIOSensorInfo]
    /// The device has scan elements (a buffer can be read).
    public var bufferCapable: Bool
    /// The device has a `trigger/current_trigger` file (a triggered buffer).
    public var usesTrigger: Bool
    /// The trigger currently assigned, if any.
    public var currentTrigger: String?
    public var hasTimestamp: Bool
    /// `current_timestamp_clock` (`realtime` by default).
    public var timestampClock: String?
}

/// One sensor (three axes of one channel type) on a device.
public struct IIOSensorInfo: Codable, Sendable, Hashable {
    public var kind: IIOSensorKind
    public var deviceID: String
    public var deviceName: String?
    public var channels: [IIOChannelInfo]
    /// Per axis: Lodestone units (µT, m/s², rad/s) per raw count, corrections included.
    public var unitsPerCount: [Double]
    /// Row-major `v_device = M · v_chip`.
    public var mountMatrix: [Double]
    /// The file the matrix came from; nil when the device has none (identity).
    public var mountMatrixFile: String?
    public var samplingFrequency: Double?
    public var samplingFrequencyFile: String?
    public var availableSamplingFrequencies: [Double]
    /// Driver corrections applied (see ``IIODriverQuirk``).
    public var corrections: [String]
    /// Raw value at which an axis counts as saturated.
    public var saturationLimit: Int64
}

/// One axis channel.
public struct IIOChannelInfo: Codable, Sendable, Hashable {
    public var id: String
    public var rawFile: String
    /// Scale as the driver prints it (IIO units per count), before corrections.
    public var scale: Double
    public var scaleFile: String?
    public var offset: Double
    public var offsetFile: String?
    public var scanIndex: Int?
    /// `in_*_type`, e.g. `be:s16/16>>0`.
    public var scanType: String?
}
