extension AttitudeFusion {
    /// What ``AttitudeFusion`` assumes about the sensors and the motion.
    ///
    /// Every value is a physical property with a unit, not a gain: the filter
    /// derives its gains from them (as a Kalman filter does), so a different
    /// sensor is described by its data sheet rather than re-tuned. Angles are
    /// in degrees, as at every Lodestone interface.
    public struct Settings: Hashable, Sendable {
        // MARK: Gyroscope

        /// White noise of the gyroscope, (°/s)/√Hz (angle random walk): the
        /// figure the filter starts with; it learns the real one at rest.
        public var gyroNoiseDensity = 0.01
        /// Relative error of the measured rotation (scale factor and axis
        /// misalignment), as a fraction. It grows the uncertainty about each
        /// earth axis in proportion to the rotation about that axis, taken to
        /// decorrelate after one radian of rotation. The least it is taken to
        /// be: whole turns may show it larger (``LoopRateError``).
        public var gyroRateError = 0.005
        /// The most the gyroscope's sensitivity may be off, as a fraction: the
        /// data sheet's sensitivity tolerance (±1–3 % for MEMS parts). A bias
        /// learned in a steady turn holds that share of its rate at most, which
        /// is left behind when the turn stops.
        public var gyroScaleTolerance = 0.03
        /// Random walk of the gyro bias, (°/s)/√s (bias instability).
        public var gyroBiasRandomWalk = 0.01
        /// Uncertainty of the gyro bias at start, °/s (turn-on bias of the part).
        public var initialBiasUncertainty = 1.0
        /// How far the gyro bias may move per kelvin of the part's temperature,
        /// °/s (1σ, each axis): the data sheet's offset drift over temperature.
        /// Used only when samples carry a temperature (``TemperatureBiasDrift``).
        public var gyroBiasTemperatureCoefficient = 0.1

        // MARK: Accelerometer

        /// Error of the accelerometer that does not average out (bias,
        /// calibration), m/s². The tilt is trusted no further than this.
        public var accelerometerError = 0.1
        /// The most a board's motion is assumed to leave in the averaged
        /// accelerometer, m/s². The filter measures what the averaging leaves of
        /// the motion (see ``GravityAverage``); that level, capped at this value,
        /// sets how far a tilt reading is trusted. Beyond it the gate and the
        /// sustained-acceleration rules take over.
        public var motionAcceleration = 0.4
        /// How long a hand motion's acceleration lasts before it reverses, s.
        /// Acceleration is averaged in the earth frame over this time (it
        /// integrates to a bounded velocity, so it averages out), and readings
        /// closer together than this are not counted as independent.
        public var motionCorrelationTime = 1.0
        /// How long the first start averages gravity before it levels, s
        /// (``StartLevel``): vibration of 10 Hz and faster averages to a third
        /// or less, and a hand's motion barely moves. A board the gyro shows
        /// turning levels sooner, and a source slower than
        /// ``maximumTimeStep`` at its second reading. No heading is reported
        /// meanwhile; 0 levels from one reading.
        public var startLevelTime = 0.2
        /// How long the averaged accelerometer may contradict the filter's tilt
        /// beyond the gate, with no acceleration to explain it, before the
        /// filter gives way to it (a knock the gyro missed), s.
        public var longestTiltInconsistency = 2.0
        /// How long, after the filter gave way to gravity, two rest windows
        /// may take to confirm that the gyro bias moved (``BiasConfirmation``),
        /// s: a slow translation's windows rarely agree, and once they have
        /// had this long to, the doubt lapses.
        public var biasDoubtTime = 10.0
        /// How long an acceleration that does not reverse (a vehicle's turn or
        /// braking) typically lasts, s: an averaged tilt reading that such an
        /// acceleration explains is counted once per this time.
        public var sustainedAccelerationTime = 5.0
        /// How long a tilt the accelerometer gave while an acceleration could
        /// explain it (``UnconfirmedTilt``) widens the accuracy, s: about the
        /// time the filter takes to level again in motion.
        public var unconfirmedTiltMemory = 30.0
        /// White noise of each accelerometer axis per sample, m/s² (learned at
        /// rest): what noise alone does to the averaged strength, so that only
        /// acceleration beyond it counts as sustained.
        public var accelerometerNoise = 0.05
        /// An averaged tilt reading that disagrees with the prediction by more
        /// than this many standard deviations (a sustained acceleration, such
        /// as a vehicle turning) is ignored. Short shocks are averaged away.
        public var accelerationGate = 3.0

        // MARK: Magnetometer

        /// White noise of each magnetometer axis, µT: the figure the filter
        /// starts with; it learns the real one at rest.
        public var magnetometerNoise = 0.7
        /// Heading error of the calibrated compass that noise does not explain
        /// (residual calibration, nearby iron), degrees (1σ over attitudes): the
        /// figure the filter starts with. It learns the real one from how the
        /// compass and the gyro disagree as the board turns.
        public var compassError = 3.0
        /// The smallest compass error the filter learns, degrees.
        public var smallestCompassError = 0.05
        /// How far the board turns before the compass error at the new
        /// attitude no longer resembles the old one, degrees.
        public var compassCorrelationAngle = 45.0
        /// How long the compass error persists on a board that does not turn
        /// (it moves through the room's field), s.
        public var compassErrorLifetime = 60.0
        /// How long the clean readings' disagreement with the heading is
        /// averaged to tell a gyro drift from the compass error, s (see
        /// ``CompassAgreement``).
        public var compassPairTime = 10.0
        /// How long compass and attitude errors persist while the board moves,
        /// s: readings of a field carried with the board closer together than
        /// this are not independent evidence (see ``BodyFixedDisturbance``).
        public var compassCorrelationTime = 2.0
        /// How far the board's up may lean from the one its compass deviation
        /// was learned at for that table to hold, degrees (see ``CompassDeviation``).
        public var deviationLevelTolerance = 10.0
        /// The largest turn compass readings are averaged over to learn the
        /// deviation, degrees: its second harmonic must not be averaged away.
        public var deviationAveragingTurn = 10.0
        /// How long a learned deviation outlives the board's leaving the up it
        /// was learned at, s; its coefficients may change over as long.
        public var deviationLifetime = 3600.0
        /// A reading whose heading innovation exceeds this many standard
        /// deviations is rejected.
        public var magneticGate = 3.0
        /// How long readings whose strength and dip match the reference may be
        /// rejected as contradicting the gyro before the filter gives way to
        /// them, s (see ``CompassAgreement``).
        public var longestCompassRejection = 10.0
        /// How long the averaged compass may disagree with the filter beyond
        /// two of its standard deviations before the filter gives way, s.
        public var longestCompassInconsistency = 5.0
        /// Largest relative deviation of the field strength from the learned
        /// reference before the field counts as disturbed.
        public var fieldNormTolerance = 0.1
        /// Largest deviation of the dip angle from the learned reference, degrees.
        public var fieldDipTolerance = 10.0
        /// Averaging time of the learned field reference, and of the offset of
        /// a field carried with the board once it is established, s.
        public var fieldReferenceTime = 60.0
        /// A different field is adopted as the new reference after it stayed
        /// constant in the earth frame this long, s ...
        public var newFieldTime = 20.0
        /// ... while the board turned at least this far, degrees.
        public var newFieldRotation = 180.0
        /// How much later the magnetometer reports the field than the gyro
        /// reports the rotation (output data period and filter delay), s. While
        /// the board turns at ω a reading is off by about ω × latency × field,
        /// which the filter counts as noise of that reading (and allows for when
        /// it checks that the readings stay consistent with a field carried
        /// with the board).
        public var magnetometerLatency = 0.01
        /// How long a change of the field carried with the board (a magnet put
        /// on, taken off or moved) must last before it is acted on, s. Shorter
        /// changes are averaged away. See ``BodyFixedDisturbance``.
        public var bodyFieldChangeTime = 1.0

        // MARK: Vehicle

        /// The body axis the vehicle drives along, used for speed aiding when
        /// the position source reports a speed but no usable course.
        public var vehicleForwardAxis = Vector3(0, 1, 0)

        // MARK: Rest and time

        /// Largest rotation rate, shown by gravity's and the field's drift,
        /// counted as steady (see ``RestDetector``), °/s.
        public var restRateThreshold = 2.0
        /// Largest departure of the acceleration from its straight line counted
        /// as steady, m/s².
        public var restAccelerationThreshold = 0.5
        /// The smallest uncertainty of a rotation rate measured at rest from the
        /// drift of gravity and field, °/s: sensors drift with temperature and a
        /// board set down settles, which no fit can tell from a slow turn.
        public var steadyRateUncertainty = 0.05
        /// How long the board must be steady before rest is declared, s; also
        /// the averaging time of ``SteadyRotation``'s window.
        public var restMinimumDuration = 1.5
        /// Longest time step integrated, s. After a longer gap the board may
        /// have turned anywhere, so the heading restarts from the compass, and
        /// the tilt from gravity unless the tilt held before the gap still fits.
        public var maximumTimeStep = 0.5

        public init() {}
    }
}
