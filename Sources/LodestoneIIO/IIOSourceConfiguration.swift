import LodestoneCore

/// How samples are captured.
public enum IIOCaptureMode: String, Sendable, Codable, CaseIterable {
    /// Buffered when every device involved can, polled otherwise.
    case auto
    /// `/dev/iio:deviceN` scans (needs scan elements and, for triggered buffers, a trigger).
    case buffered
    /// Reads `*_raw` attributes at the requested rate.
    case polled
}

/// Settings of an ``IIOSensorSource``; defaults suit a board with one magnetometer and one accelerometer.
public struct IIOSourceConfiguration: Hashable, Sendable {
    /// Any libiio URI: `local:`, `ip:HOST`, `usb:…`, `serial:…`.
    public var uri: String
    /// Pins (`--magn DEV` …): a device name, label or id such as `iio:device2`.
    public var magnetometerDevice: String?
    public var accelerometerDevice: String?
    public var gyroscopeDevice: String?
    /// Read a gyroscope when one is found.
    public var useGyroscope: Bool
    public var mode: IIOCaptureMode
    /// Sample rate in Hz: sets `sampling_frequency` to the nearest available value, and
    /// is the polling rate in polled mode.
    public var rate: Double
    /// Overrides `rate` for the magnetometer's device when it is a separate device.
    public var magnetometerRate: Double?
    /// Device frame → body frame, applied after the mount matrices:
    /// `v_body = boardRotation · M · v_chip`. For boards whose device tree has no
    /// mount matrix; see ``BoardRotation``.
    public var boardRotation: Matrix3
    /// Apply ``IIODriverQuirk`` corrections (the HMC5883L scale).
    public var applyDriverCorrections: Bool
    /// Identical raw triples in a row after which a sensor is flagged stuck.
    public var stuckSampleCount: Int
    /// Buffered mode: how much data one refill waits for, in seconds.
    public var bufferLatency: Double
    /// How long without data before a transient timeout error, in seconds.
    public var readTimeout: Double

    /// The highest rate a capture is planned for: a rate read back from a device's
    /// `sampling_frequency` may be anything.
    public static let maximumDeviceRate = 100_000.0

    /// A rate as written to `sampling_frequency`: a whole number without decimals.
    static func rateText(_ hz: Double) -> String {
        Int(exactly: hz).map(String.init) ?? String(hz)
    }

    public init(uri: String = "local:", magnetometerDevice: String? = nil, accelerometerDevice: String? = nil,
                gyroscopeDevice: String? = nil, useGyroscope: Bool = true, mode: IIOCaptureMode = .auto,
                rate: Double = 100, magnetometerRate: Double? = nil, boardRotation: Matrix3 = .identity,
                applyDriverCorrections: Bool = true, stuckSampleCount: Int = 100, bufferLatency: Double = 0.05,
                readTimeout: Double = 2) {
        self.uri = uri
        self.magnetometerDevice = magnetometerDevice
        self.accelerometerDevice = accelerometerDevice
        self.gyroscopeDevice = gyroscopeDevice
        self.useGyroscope = useGyroscope
        self.mode = mode
        self.rate = rate
        self.magnetometerRate = magnetometerRate
        self.boardRotation = boardRotation
        self.applyDriverCorrections = applyDriverCorrections
        self.stuckSampleCount = stuckSampleCount
        self.bufferLatency = bufferLatency
        self.readTimeout = readTimeout
    }
}

/// Board rotations for `--board-rotation` (device frame → body frame).
public enum BoardRotation {
    /// Rotation about +z (counter-clockwise seen from above) by `degrees`; exact for multiples of 90°.
    public static func aboutZ(degrees: Double) -> Matrix3 {
        if let q = Int(exactly: degrees), q % 90 == 0 {
            switch ((q % 360) + 360) % 360 {
            case 0: return .identity
            case 90: return Matrix3(0, -1, 0, 1, 0, 0, 0, 0, 1)
            case 180: return Matrix3(-1, 0, 0, 0, -1, 0, 0, 0, 1)
            default: return Matrix3(0, 1, 0, -1, 0, 0, 0, 0, 1)
            }
        }
        let r = degrees * Angle.radiansPerDegree
        return Quaternion(axis: .unitZ, angle: r).rotationMatrix
    }

    /// Parses `90` (degrees about z) or a matrix `"a, b, c; d, e, f; g, h, i"`.
    /// Returns nil unless the result is a proper rotation.
    public static func parse(_ text: String) -> Matrix3? {
        let m: Matrix3
        if let d = IIOText.double(text) {
            m = aboutZ(degrees: d)
        } else if let parsed = IIOMountMatrix.parse(text) {
            m = parsed
        } else {
            return nil
        }
        let orthogonality = (m * m.transposed).maxDifference(to: .identity)
        guard orthogonality < 1e-3, abs(m.determinant - 1) < 1e-3 else { return nil }
        return m
    }
}
