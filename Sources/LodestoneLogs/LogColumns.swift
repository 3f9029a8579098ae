/// Column names of Lodestone logs (plain CSV and native logs alike).
public enum LogColumns {
    public static let time = "time"
    public static let acceleration = ["accel_x", "accel_y", "accel_z"]
    public static let magneticField = ["mag_x", "mag_y", "mag_z"]
    public static let angularRate = ["gyro_x", "gyro_y", "gyro_z"]
    /// Ground speed from a position source, m/s (empty or `nan`: unknown).
    public static let speed = "speed"
    /// Course over ground, degrees clockwise from true north, 0–360 (empty or `nan`: unknown).
    public static let track = "track"
    /// The optional columns of a position source.
    public static let groundTrack = [speed, track]
    /// The gyroscope's temperature, °C (empty or `nan`: unknown).
    public static let temperature = "temperature"

    /// The required columns, in the order the documentation gives them.
    public static let required = [time] + acceleration + magneticField

    /// The header for samples with or without a gyroscope, with or without
    /// ground speed and track and the temperature, plus any extra columns.
    public static func header(gyroscope: Bool, groundTrack: Bool = false, temperature: Bool = false,
                              extra: [String] = []) -> [String] {
        required + (gyroscope ? angularRate : []) + (groundTrack ? Self.groundTrack : [])
            + (temperature ? [Self.temperature] : []) + extra
    }
}
