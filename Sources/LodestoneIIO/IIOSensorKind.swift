/// The three kinds of motion sensor Lodestone reads, named by IIO channel type.
public enum IIOSensorKind: String, CaseIterable, Sendable, Codable {
    case magnetometer = "magn"
    case accelerometer = "accel"
    case gyroscope = "anglvel"

    /// The IIO channel type (`magn`, `accel`, `anglvel`).
    public var channelType: String { rawValue }

    /// Channel ids of the three axes, as libiio names them (`magn_x` …).
    public var channelIDs: [String] { ["x", "y", "z"].map { "\(rawValue)_\($0)" } }

    /// The raw files a device must have to count as this sensor.
    public var rawFiles: [String] { channelIDs.map { "in_\($0)_raw" } }

    /// Factor from the IIO unit to Lodestone's: Gauss → µT (×100); m/s² and rad/s stay.
    public var unitFactor: Double { self == .magnetometer ? 100 : 1 }

    /// Lodestone's unit for this sensor.
    public var unit: String {
        switch self {
        case .magnetometer: return "µT"
        case .accelerometer: return "m/s²"
        case .gyroscope: return "rad/s"
        }
    }

    /// The CLI option that pins this sensor to a device.
    public var pinOption: String {
        switch self {
        case .magnetometer: return "--magn"
        case .accelerometer: return "--accel"
        case .gyroscope: return "--gyro"
        }
    }

    /// A readable name.
    public var noun: String {
        switch self {
        case .magnetometer: return "magnetometer"
        case .accelerometer: return "accelerometer"
        case .gyroscope: return "gyroscope"
        }
    }
}
