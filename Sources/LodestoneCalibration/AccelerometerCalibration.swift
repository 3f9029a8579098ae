import LodestoneCore

/// Bias and gain correction of an accelerometer: `a = matrix · (raw − offset)`.
///
/// The offset is the zero-g bias (m/s²); the matrix holds the per-axis scale
/// factors on its diagonal and, when fitted, small symmetric cross-axis terms.
public struct AccelerometerCalibration: Hashable, Sendable {
    public var offset: Vector3
    public var matrix: Matrix3

    public init(offset: Vector3 = .zero, matrix: Matrix3 = .identity) {
        self.offset = offset
        self.matrix = matrix
    }

    public static let identity = AccelerometerCalibration()

    public func apply(_ raw: Vector3) -> Vector3 { matrix * (raw - offset) }
}

extension CalibrationFit {
    /// The accelerometer form of this fit.
    public var accelerometerCalibration: AccelerometerCalibration {
        AccelerometerCalibration(offset: offset, matrix: matrix)
    }
}
