/// Estimates `headingAccuracy`: how far, in degrees, the heading may be off (about 1σ).
///
/// It adds in quadrature the error sources a tilt-compensated compass has:
/// - the calibration's residual (from the profile's fit error, or a generous
///   figure when uncalibrated);
/// - sensor noise left after smoothing;
/// - tilt error from linear acceleration, which moves the heading by about
///   `tilt error · tan(dip)`;
/// - lag of the smoothing while turning (rate / cutoff);
/// - a disturbance: the field's strength and dip departures bound the
///   disturbing vector `d` from below, which turns the heading by up to
///   `|d| / B_horizontal`; while a disturbance is on, the part of `d` that
///   neither departure can see is allowed for by doubling it.
/// The bookkeeping is a few multiply-adds and three square roots; the estimate
/// itself is only computed for delivered headings.
public struct HeadingAccuracyEstimator: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Heading error of an uncalibrated magnetometer, degrees (1σ).
        public var uncalibratedError: Double
        /// The smallest calibration error claimed, degrees.
        public var minimumCalibrationError: Double
        /// Time constant in seconds of the noise statistics.
        public var noiseTimeConstant: Double
        /// Typical distance from the sensor to the centre of rotation, metres (a
        /// hand turning at the wrist): turning at ω then accelerates the sensor by
        /// about ω²·r, which a compass without a gyroscope cannot tell from gravity.
        public var leverArm: Double

        public init(uncalibratedError: Double = 5, minimumCalibrationError: Double = 0.5, noiseTimeConstant: Double = 2,
                    leverArm: Double = 0.15) {
            self.uncalibratedError = uncalibratedError
            self.minimumCalibrationError = minimumCalibrationError
            self.noiseTimeConstant = noiseTimeConstant
            self.leverArm = leverArm
        }
    }

    /// What the estimate is made from, beyond the noise statistics kept here.
    public struct State {
        public var gravity: Vector3
        public var field: Vector3
        /// The smoother's last factor (1 = no smoothing) and its cutoff in rad/s.
        public var smoothingFactor: Double
        public var cutoff: Double
        /// How fast the smoothed directions move, rad/s (``AdaptiveSmoother/agitation``):
        /// the smoothing lags by it over the cutoff, and a hand turning at it accelerates.
        public var agitation: Double
        /// Strength (µT) and dip (degrees) departures from the reference field.
        public var strengthDeparture: Double
        public var dipDeparture: Double
        public var isDisturbed: Bool
        /// During a disturbance, the largest disturbing field seen recently, µT.
        public var disturbanceBound: Double
        public var calibration: CalibrationStatus?

        public init(gravity: Vector3, field: Vector3, smoothingFactor: Double, cutoff: Double, agitation: Double,
                    strengthDeparture: Double, dipDeparture: Double, isDisturbed: Bool, disturbanceBound: Double = 0,
                    calibration: CalibrationStatus?) {
            self.gravity = gravity
            self.field = field
            self.smoothingFactor = smoothingFactor
            self.cutoff = cutoff
            self.agitation = agitation
            self.strengthDeparture = strengthDeparture
            self.dipDeparture = dipDeparture
            self.isDisturbed = isDisturbed
            self.disturbanceBound = disturbanceBound
            self.calibration = calibration
        }
    }

    public let settings: Settings
    /// Mean squared innovation of field (µT²) and acceleration ((m/s²)²) against the smoothed vectors.
    public private(set) var fieldNoisePower = 0.0
    public private(set) var accelerationNoisePower = 0.0
    /// Mean squared departure of the specific force's magnitude from 1 g, (m/s²)²:
    /// linear acceleration along gravity, seen whatever the filter does. The noise of
    /// one axis (a third of ``accelerationNoisePower``) is taken off before its root is
    /// used: at rest the departure is that noise, which the smoother averages.
    public private(set) var gravityDeparturePower = 0.0
    /// The roots the estimate takes of the three powers, worked out when they
    /// change (``record``, 50 times a second in the pipeline) rather than for every
    /// delivered heading: field noise across the horizontal field (one of three
    /// axes), µT; noise across gravity (two of three), m/s²; linear acceleration
    /// along gravity, m/s².
    private var fieldNoiseRoot = 0.0
    private var accelerationNoiseRoot = 0.0
    private var gravityDepartureRoot = 0.0
    private let noiseRate: Double

    public init(settings: Settings = Settings()) {
        self.settings = settings
        noiseRate = 1 / settings.noiseTimeConstant
    }

    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665

    /// Records one sample's innovation against the smoothed vectors.
    public mutating func record(field: Vector3, smoothedField: Vector3,
                                acceleration: Vector3, smoothedGravity: Vector3, dt: Double) {
        guard dt > 0 else { return }
        let a = min(1, dt * noiseRate)
        fieldNoisePower += ((field - smoothedField).squaredLength - fieldNoisePower) * a
        accelerationNoisePower += ((acceleration - smoothedGravity).squaredLength - accelerationNoisePower) * a
        // (|a|² − g²) / 2g ≈ |a| − g, without a square root.
        let departure = (acceleration.squaredLength - Self.standardGravity * Self.standardGravity) / (2 * Self.standardGravity)
        gravityDeparturePower += (departure * departure - gravityDeparturePower) * min(1, dt * 4 * noiseRate)
        fieldNoiseRoot = (fieldNoisePower / 3).squareRoot()
        accelerationNoiseRoot = (accelerationNoisePower * 2 / 3).squareRoot()
        gravityDepartureRoot = (2 * max(0, gravityDeparturePower - accelerationNoisePower / 3)).squareRoot()
    }

    /// The accuracy in degrees.
    public func accuracy(_ s: State) -> Double {
        let g = s.gravity.length, b = s.field.length
        guard g > 0, b > 0 else { return -1 }
        let sinDip = min(1, abs(s.field.dot(s.gravity)) / (g * b))
        let cosDip = max(1e-3, (1 - sinDip * sinDip).squareRoot())
        let horizontal = b * cosDip
        let tanDip = sinDip / cosDip
        let reduction = (s.smoothingFactor / (2 - s.smoothingFactor)).squareRoot()

        let calibration = (s.calibration.map { max(settings.minimumCalibrationError, $0.headingError(cosDip: cosDip)) }
            ?? settings.uncalibratedError) * Angle.radiansPerDegree
        let fieldNoise = fieldNoiseRoot / horizontal * reduction
        let tiltNoise = accelerationNoiseRoot / g * reduction
        let tiltBias = min(1, abs(g - Self.standardGravity) / Self.standardGravity)
        // Linear acceleration shows in |a| along gravity only; assuming no preferred
        // direction, the two components across gravity are as large and tilt the estimate.
        let centripetal = s.agitation * s.agitation * settings.leverArm
        let linear = min(1, max(gravityDepartureRoot, centripetal) / g)
        let tilt = (tiltNoise * tiltNoise + tiltBias * tiltBias + linear * linear).squareRoot() * tanDip
        let lag = s.cutoff.isFinite && s.cutoff > 0 ? s.agitation / s.cutoff : 0
        let dipDeparture = s.dipDeparture * Angle.radiansPerDegree * b
        var disturbance = (s.strengthDeparture * s.strengthDeparture + dipDeparture * dipDeparture).squareRoot()
        if s.isDisturbed { disturbance = 2 * max(disturbance, s.disturbanceBound) }
        disturbance /= horizontal

        let total = (calibration * calibration + fieldNoise * fieldNoise + tilt * tilt + lag * lag
                     + disturbance * disturbance).squareRoot()
        return min(180, total * Angle.degreesPerRadian)
    }
}
