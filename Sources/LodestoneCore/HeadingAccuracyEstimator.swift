#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Estimates `headingAccuracy`: how far, in degrees, the heading may be off.
///
/// It adds in quadrature the error sources a tilt-compensated compass has:
/// sensor noise left after smoothing, linear acceleration tilting the gravity
/// estimate (which moves the heading by about `tilt error · tan(dip)`), a field
/// whose strength departs from the expected one (a disturbance of ΔB moves the
/// heading by up to `ΔB / B_horizontal`), and the residual error of the
/// calibration. Per-sample bookkeeping is a few multiply-adds; the estimate
/// itself is only computed for delivered headings.
public struct HeadingAccuracyEstimator: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Residual heading error of the calibration in degrees (1σ). An
        /// uncalibrated board needs a generous value; a calibration profile
        /// sets it from its fit quality.
        public var calibrationError: Double
        /// Expected field strength in µT, from the model or the calibration.
        /// When nil, it is learned slowly from the data.
        public var expectedFieldStrength: Double?
        /// Time constant in seconds of the noise statistics.
        public var noiseTimeConstant: Double
        /// Time constant in seconds of the learned field strength.
        public var fieldStrengthTimeConstant: Double

        public init(calibrationError: Double = 5, expectedFieldStrength: Double? = nil,
                    noiseTimeConstant: Double = 2, fieldStrengthTimeConstant: Double = 60) {
            self.calibrationError = calibrationError
            self.expectedFieldStrength = expectedFieldStrength
            self.noiseTimeConstant = noiseTimeConstant
            self.fieldStrengthTimeConstant = fieldStrengthTimeConstant
        }
    }

    public var settings: Settings
    /// Mean squared innovation of field (µT²) and acceleration ((m/s²)²) against the smoothed vectors.
    public private(set) var fieldNoisePower = 0.0
    public private(set) var accelerationNoisePower = 0.0
    /// Mean squared field strength learned from the data, µT².
    private var learnedFieldPower = 0.0
    private var started = false
    private let noiseRate: Double
    private let fieldRate: Double

    public init(settings: Settings = Settings()) {
        self.settings = settings
        noiseRate = 1 / settings.noiseTimeConstant
        fieldRate = 1 / settings.fieldStrengthTimeConstant
    }

    /// Field strength learned from the data, µT.
    public var learnedFieldStrength: Double { learnedFieldPower.squareRoot() }

    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665

    /// Records one sample's innovation against the smoothed vectors.
    public mutating func record(field: Vector3, smoothedField: Vector3,
                                acceleration: Vector3, smoothedGravity: Vector3, dt: Double) {
        let strength = smoothedField.squaredLength
        guard started else {
            started = true
            learnedFieldPower = strength
            return
        }
        guard dt > 0 else { return }
        let a = min(1, dt * noiseRate)
        fieldNoisePower += ((field - smoothedField).squaredLength - fieldNoisePower) * a
        accelerationNoisePower += ((acceleration - smoothedGravity).squaredLength - accelerationNoisePower) * a
        learnedFieldPower += (strength - learnedFieldPower) * min(1, dt * fieldRate)
    }

    /// The expected field strength in µT: configured, or learned.
    public var expectedFieldStrength: Double {
        settings.expectedFieldStrength ?? learnedFieldStrength
    }

    /// The accuracy in degrees for the smoothed state.
    ///
    /// - Parameters:
    ///   - smoothingFactor: the smoother's last α; noise shrinks by √(α / (2 − α)).
    public func accuracy(gravity: Vector3, field: Vector3, smoothingFactor: Double) -> Double {
        let g = gravity.length, b = field.length
        guard g > 0, b > 0 else { return -1 }
        let sinDip = min(1, abs(field.dot(gravity)) / (g * b))
        let cosDip = max(1e-3, (1 - sinDip * sinDip).squareRoot())
        let horizontal = b * cosDip
        let tanDip = sinDip / cosDip
        let reduction = (smoothingFactor / (2 - smoothingFactor)).squareRoot()

        // Noise across the horizontal field (one of three axes) and across gravity (two of three).
        let fieldNoise = (fieldNoisePower / 3).squareRoot() / horizontal * reduction
        let tiltNoise = (accelerationNoisePower * 2 / 3).squareRoot() / g * reduction
        // Sustained linear acceleration shows as a gravity magnitude off 1 g.
        let tiltBias = min(1, abs(g - Self.standardGravity) / Self.standardGravity)
        let tilt = (tiltNoise * tiltNoise + tiltBias * tiltBias).squareRoot() * tanDip
        let expected = expectedFieldStrength
        let disturbance = expected > 0 ? min(Double.pi / 2, abs(b - expected) / horizontal) : 0

        let calibration = settings.calibrationError * Angle.radiansPerDegree
        let total = (fieldNoise * fieldNoise + tilt * tilt + disturbance * disturbance
                     + calibration * calibration).squareRoot()
        return min(180, total * Angle.degreesPerRadian)
    }
}
