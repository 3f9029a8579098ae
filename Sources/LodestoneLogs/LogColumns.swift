/// Column names of Lodestone logs (plain CSV and native logs alike).
public enum LogColumns {
    public static let time = "time"
    public static let acceleration = ["accel_x", "accel_y", "accel_z"]
    public static let magneticField = ["mag_x", "mag_y", "mag_z"]
    public static let angularRate = ["gyro_x", "gyro_y", "gyro_z"]

    /// The required columns, in the order the documentation gives them.
    public static let required = [time] + acceleration + magneticField

    /// The header for samples with or without a gyroscope, plus any extra columns.
    public static func header(gyroscope: Bool, extra: [String] = []) -> [String] {
        required + (gyroscope ? angularRate : []) + extra
    }
}
