import LodestoneCore

/// How a simulated magnetometer departs from the true field, and how often it samples.
///
/// Reads `softIron · (B + room fields)_body + hardIron + carried fields + noise`, rounded to
/// `resolution`. With a `rate`, it samples on its own clock and each IMU
/// sample carries the latest reading (held), as IIO delivers a slower
/// magnetometer next to a faster IMU.
public struct MagnetometerModel: Hashable, Sendable {
    /// Per-axis noise per sample, µT (1σ).
    public var noise: Double
    /// µT, sensor frame.
    public var hardIron: Vector3
    public var softIron: Matrix3
    /// Hz; nil samples with every IMU sample.
    public var rate: Double?
    /// µT (0: not rounded).
    public var resolution: Double
    /// Fields carried with the board for a while: a magnet, a changed hard iron.
    public var carriedFields: [SyntheticRecording.CarriedField]
    /// Fields fixed in the room for a while: a motor switched on beside the board.
    public var roomFields: [SyntheticRecording.RoomField] = []

    public init(noise: Double = 0, hardIron: Vector3 = .zero, softIron: Matrix3 = .identity, rate: Double? = nil,
                resolution: Double = 0, carriedFields: [SyntheticRecording.CarriedField] = []) {
        self.noise = noise
        self.hardIron = hardIron
        self.softIron = softIron
        self.rate = rate
        self.resolution = resolution
        self.carriedFields = carriedFields
    }

    public static let ideal = MagnetometerModel()

    /// 0.5 µT noise per sample (an LIS3MDL or a BMM150 at its usual settings), resolution 0.001 µT.
    public static let typical = MagnetometerModel(noise: 0.5, resolution: 1e-3)

    /// The calibration that exactly undoes the hard and soft iron.
    public var exactCalibration: MagneticCalibration {
        MagneticCalibration(hardIron: hardIron, softIron: softIron.inverse ?? .identity)
    }
}
