#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns sensor samples into a magnetic heading of the forward axis.
///
/// One step: apply the magnetometer calibration, then either smooth gravity
/// and field (``AdaptiveSmoother``) and take the tilt-compensated heading
/// (`ecompass`), or fuse gyro, accelerometer and magnetometer
/// (``AttitudeFusion``, `ahrs`; the default when the samples carry a gyro).
/// Attitude and accuracy cost more and are computed on demand, only for the
/// headings that are delivered. Both modes feed the same
/// ``MagneticEnvironmentMonitor`` for disturbance and calibration events.
///
/// A heading is invalid (accuracy −1) when the forward axis is within
/// ``Settings/minimumAxisElevation`` of vertical, or when the field or gravity
/// strength is implausible. Samples with non-finite values are ignored.
public struct HeadingEstimator: Sendable {
    public struct Settings: Hashable, Sendable {
        public var forwardAxis: ForwardAxis
        public var fusion: FusionMode
        public var fusionSettings: AttitudeFusion.Settings
        public var calibration: MagneticCalibration
        /// Quality of `calibration`; nil when the magnetometer was never calibrated.
        public var calibrationStatus: CalibrationStatus?
        /// Nil turns smoothing off.
        public var smoothing: AdaptiveSmoother.Settings?
        public var accuracy: HeadingAccuracyEstimator.Settings
        public var monitor: MagneticEnvironmentMonitor.Settings
        /// The field the model expects here, when the position is known.
        public var expectedField: ExpectedField?
        /// Unix seconds of sample time 0 (for the calibration's age), when known.
        public var wallClockStart: Double?
        /// The heading is invalid when the forward axis is closer than this to vertical, degrees.
        public var minimumAxisElevation: Double
        /// Plausible calibrated field strength, µT (the Earth's is 22–67 µT).
        public var plausibleFieldStrength: ClosedRange<Double>
        /// Plausible gravity (specific force) magnitude, m/s².
        public var plausibleGravity: ClosedRange<Double>

        public init(forwardAxis: ForwardAxis = .default,
                    fusion: FusionMode = .auto,
                    fusionSettings: AttitudeFusion.Settings = .init(),
                    calibration: MagneticCalibration = .identity,
                    calibrationStatus: CalibrationStatus? = nil,
                    smoothing: AdaptiveSmoother.Settings? = AdaptiveSmoother.Settings(),
                    accuracy: HeadingAccuracyEstimator.Settings = .init(),
                    monitor: MagneticEnvironmentMonitor.Settings = .init(),
                    expectedField: ExpectedField? = nil,
                    wallClockStart: Double? = nil,
                    minimumAxisElevation: Double = 10,
                    plausibleFieldStrength: ClosedRange<Double> = 10...100,
                    plausibleGravity: ClosedRange<Double> = 4.9...14.7) {
            self.forwardAxis = forwardAxis
            self.fusion = fusion
            self.fusionSettings = fusionSettings
            self.calibration = calibration
            self.calibrationStatus = calibrationStatus
            self.smoothing = smoothing
            self.accuracy = accuracy
            self.monitor = monitor
            self.expectedField = expectedField
            self.wallClockStart = wallClockStart
            self.minimumAxisElevation = minimumAxisElevation
            self.plausibleFieldStrength = plausibleFieldStrength
            self.plausibleGravity = plausibleGravity
        }
    }

    public private(set) var settings: Settings
    public private(set) var smoother: AdaptiveSmoother
    public private(set) var accuracyEstimator: HeadingAccuracyEstimator
    public private(set) var monitor: MagneticEnvironmentMonitor
    public private(set) var fusion: AttitudeFusion
    /// Learns a hard iron the calibration left in the readings as the board turns.
    public private(set) var swing: HardIronSwing
    /// Declination in degrees where the position is known: a position
    /// source's course (from true north) becomes magnetic for speed aiding.
    public var declination: Double?
    /// Whether the last sample went through gyro fusion.
    public private(set) var isFusing = false
    /// Sine of the forward axis's elevation at the last sample (1: straight up,
    /// −1: straight down), so that a host can say why headings are invalid.
    public private(set) var forwardAxisUp = 0.0
    let axis: Vector3
    let mayFuse: Bool
    let maximumAxisUp: Double // sin(90° − elevation limit)
    let fieldRange2: ClosedRange<Double>
    let gravityRange2: ClosedRange<Double>
    var lastTime = -Double.infinity
    /// Time gathered since the monitor and the noise statistics last ran.
    var monitorTime = 0.0
    var monitorStarted = false
    static let monitorInterval = 0.02
    /// The forward axis in earth axes as `fuse` worked it out, and the attitude it
    /// came from: the accuracy of the same sample uses it again instead of
    /// rotating the axis a second time.
    var fusedForward = Vector3.zero
    var fusedForwardAttitude = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)

    public init(settings: Settings = Settings()) {
        self.settings = settings
        smoother = settings.smoothing.map { AdaptiveSmoother(settings: $0) } ?? .passThrough
        accuracyEstimator = HeadingAccuracyEstimator(settings: settings.accuracy)
        monitor = MagneticEnvironmentMonitor(settings: settings.monitor, calibration: settings.calibrationStatus,
                                             expected: settings.expectedField, wallClockStart: settings.wallClockStart)
        let fusionSettings = Self.fusionSettings(settings)
        fusion = AttitudeFusion(settings: fusionSettings)
        swing = HardIronSwing(compassError: fusionSettings.compassError * Angle.radiansPerDegree,
                              dip: Self.dip(settings))
        swing.reference = Self.referenceField(settings)
        axis = settings.forwardAxis.vector
        mayFuse = settings.fusion != .ecompass
        maximumAxisUp = Self.cosine(degrees: settings.minimumAxisElevation)
        fieldRange2 = Self.squared(settings.plausibleFieldStrength)
        gravityRange2 = Self.squared(settings.plausibleGravity)
    }

    private static func squared(_ r: ClosedRange<Double>) -> ClosedRange<Double> {
        (r.lowerBound * r.lowerBound)...(r.upperBound * r.upperBound)
    }

    private static func cosine(degrees: Double) -> Double {
        cos(degrees * Angle.radiansPerDegree)
    }

    /// Processes one sample; nil for a sample with non-finite values or before
    /// the first usable one.
    public mutating func update(_ sample: SensorSample) -> HeadingEstimate? {
        let a = sample.acceleration, raw = sample.magneticField
        // One test for all seven: any NaN or infinity makes the sum times zero NaN.
        let probe = (a.x + a.y + a.z + raw.x + raw.y + raw.z + sample.time) * 0
        guard probe == 0 else { return nil }
        let m = settings.calibration.apply(raw)
        let dt = sample.time - lastTime
        lastTime = sample.time
        if mayFuse, let w = sample.angularRate, w.isFinite {
            return fuse(sample, field: m, angularRate: w, dt: dt)
        }
        isFusing = false
        smoother.update(gravity: a, field: m, dt: dt)
        guard smoother.isInitialized else { return nil }
        let up = smoother.up, east = smoother.east
        monitorTime += dt
        if monitorTime >= Self.monitorInterval || !monitorStarted {
            // Statistics and the monitor work on ≥ 20 ms scales: 50 updates a second suffice.
            accuracyEstimator.record(field: m, smoothedField: smoother.field,
                                     acceleration: a, smoothedGravity: smoother.gravity, dt: monitorTime)
            let still = smoother.agitation < Self.stillRate
                && abs(smoother.gravity.squaredLength - Self.gravity2) < Self.stillGravity2
            monitor.update(field: m, up: up, still: still, time: sample.time, dt: monitorTime)
            swingHardIron(field: m, up: up, dt: monitorTime) { up.cross(east) }
            monitorTime = 0
            monitorStarted = true
        }
        let north = up.cross(east)
        let direction = HeadingDirection(east: east.dot(axis), north: north.dot(axis))
        forwardAxisUp = up.dot(axis)
        let valid = !isForwardAxisVertical
            && fieldRange2.contains(smoother.field.squaredLength)
            && gravityRange2.contains(smoother.gravity.squaredLength)
        return HeadingEstimate(time: sample.time, direction: direction, field: m, isValid: valid)
    }

    /// The AHRS path: the gyro carries the attitude; the heading is the forward axis's in ENU.
    /// Inlined into ``update(_:)``, its one caller, every sample.
    @inline(__always)
    private mutating func fuse(_ sample: SensorSample, field m: Vector3, angularRate w: Vector3,
                               dt: Double) -> HeadingEstimate? {
        isFusing = true
        let time = sample.time
        // A course from true north is magnetic only where the declination is known.
        let course = sample.track.flatMap { t in declination.map { (t - $0) * Angle.radiansPerDegree } }
        fusion.update(acceleration: sample.acceleration, magneticField: m, angularRate: w, dt: max(0, dt),
                      speed: sample.speed, course: course, temperature: sample.temperature)
        guard fusion.isInitialized else { return nil }
        let q = fusion.attitude
        monitorTime += max(0, dt)
        if monitorTime >= Self.monitorInterval || !monitorStarted {
            // The monitor works on ≥ 20 ms scales: 50 updates a second suffice.
            let up = q.conjugate.rotate(.unitZ)
            monitor.update(field: m, up: up, still: fusion.isAtRest, time: time, dt: monitorTime)
            // A field the fusion takes out as carried came in a step: the board's own, not what
            // it is fixed in, which was there from the start. Two learners would fight over it.
            if fusion.bodyFieldOffset == nil {
                swingHardIron(field: m, up: up, dt: monitorTime) { q.conjugate.rotate(.unitY) }
            }
            monitorTime = 0
            monitorStarted = true
        }
        let forward = q.rotate(axis)
        fusedForward = forward
        fusedForwardAttitude = q
        forwardAxisUp = forward.z
        let valid = !isForwardAxisVertical && fieldRange2.contains(m.squaredLength)
        return HeadingEstimate(time: time, direction: HeadingDirection(east: forward.x, north: forward.y),
                               field: m, isValid: valid)
    }

    /// Whether the forward axis was within ``Settings/minimumAxisElevation`` of
    /// vertical at the last sample: its heading is undefined, not merely uncertain.
    public var isForwardAxisVertical: Bool { !(abs(forwardAxisUp) < maximumAxisUp) }

    /// Still enough to trust the dip: turning slower than 0.3 rad/s and gravity within ~2 % of 1 g.
    static let stillRate = 0.3
    static let gravity2 = HeadingAccuracyEstimator.standardGravity * HeadingAccuracyEstimator.standardGravity
    static let stillGravity2 = 0.04 * gravity2

    /// The field the model expects here changed (new position or date).
    public mutating func setExpectedField(_ field: ExpectedField?) {
        monitor.setExpected(field)
        var known = settings
        known.expectedField = field
        swing.reference = Self.referenceField(known)
    }

    /// Replaces the magnetometer calibration and its status without starting
    /// again: attitude, gyro bias and smoothing carry on. The smoothed field is
    /// mapped to the new calibration (see ``AdaptiveSmoother/transformField(_:)``),
    /// the monitor compares with the new status, and gyro fusion forgets a field
    /// carried with the board (it may have been the offset now corrected).
    /// Used by online hard-iron tracking; a reload with other settings starts anew.
    public mutating func replaceCalibration(_ calibration: MagneticCalibration, status: CalibrationStatus?) {
        swing.reset()
        takeCalibration(calibration, status: status)
    }

    /// The new calibration in use: the monitor compares with its status from
    /// the next readings, the smoothed field and gyro fusion carry over to it.
    private mutating func takeCalibration(_ calibration: MagneticCalibration, status: CalibrationStatus?) {
        settings.calibrationStatus = status
        monitor.replaceCalibration(status)
        let old = settings.calibration
        settings.calibration = calibration
        guard calibration != old, let inverse = old.softIron.inverse else { return }
        // new(raw) = A·old(raw) + b with A = S'·S⁻¹, b = S'·(o − o')
        let a = calibration.softIron * inverse, b = calibration.softIron * (old.hardIron - calibration.hardIron)
        smoother.transformField { a * $0 + b }
        fusion.calibrationChanged(compassError: Self.fusionSettings(settings).compassError) { a * $0 + b }
    }

    /// Feeds ``HardIronSwing``; an offset it adopts goes into the calibration
    /// (`B = S·(raw − o) − h = S·(raw − o − S⁻¹h)`), and an event says so.
    @inline(__always)
    private mutating func swingHardIron(field m: Vector3, up: Vector3, dt: Double, north: () -> Vector3) {
        guard let h = swing.observe(field: m, up: up, dt: dt, north: north), let inverse = settings.calibration.softIron.inverse else { return }
        let old = settings.calibration.hardIron
        var swung = settings.calibration
        swung.hardIron = old + inverse * h
        // The monitor's averages were of readings through the old offset: it
        // starts again. The swing started its own again, and keeps what it holds
        // of the part left unsolved.
        takeCalibration(swung, status: settings.calibrationStatus)
        monitor.report(.hardIronSwung(detail: "the field's strength followed an offset of " + DecimalText.vector(h)
            + " µT as the board turned, which the calibration did not take out (a vehicle's steel, or no calibration): "
            + "taken out from now on (hard iron " + DecimalText.vector(old) + " → " + DecimalText.vector(swung.hardIron) + " µT)"))
    }

    /// Events raised since the last call (calibration prompts, disturbances).
    public mutating func takeEvents() -> [MagneticEvent] {
        monitor.takeEvents()
    }

    /// Whether events are waiting: one branch per sample for the caller.
    @inlinable public var hasEvents: Bool { !monitor.events.isEmpty }

    /// Attitude of the current state, body → ENU with north = magnetic north.
    public var attitude: Quaternion {
        @inline(__always) get {
            if isFusing { return fusion.attitude }
            let up = smoother.up, east = smoother.east
            return Quaternion(rotationMatrix: Matrix3(rows: east, up.cross(east), up))
        }
    }

    /// `headingAccuracy` in degrees for the current state, −1 when invalid.
    @inline(__always)
    public func accuracy(for estimate: HeadingEstimate) -> Double {
        guard estimate.isValid else { return -1 }
        if isFusing { return fusedAccuracy() }
        let departure = monitor.departure
        let compass = accuracyEstimator.accuracy(.init(
            gravity: smoother.gravity, field: smoother.field, smoothingFactor: smoother.lastAlpha,
            cutoff: smoother.cutoff, agitation: smoother.agitation,
            strengthDeparture: departure.strength, dipDeparture: departure.dip,
            isDisturbed: monitor.isDisturbed, disturbanceBound: monitor.disturbanceBound,
            calibration: settings.calibrationStatus))
        let suspected = swing.suspectedHeadingError * Angle.degreesPerRadian
        guard suspected > 0, compass >= 0 else { return compass }
        return min(180, (compass * compass + suspected * suspected).squareRoot())
    }

    /// Gyro fusion's heading uncertainty (which holds the compass error it
    /// learned, see ``AttitudeFusion``), plus what its tilt uncertainty does to
    /// a forward axis that is itself tilted (the heading of an axis at
    /// elevation e moves by about tilt error × tan e), plus what a field that
    /// has left the calibrated sphere may do (``MagneticEnvironmentMonitor/calibrationDeparture``):
    /// the fusion learns its reference from the readings, so it follows such a
    /// field's strength and takes the profile's small fit error at its word.
    @inline(__always)
    private func fusedAccuracy() -> Double {
        let q = fusion.attitude, known = fusedForwardAttitude
        let same = q.w.bitPattern == known.w.bitPattern && q.x.bitPattern == known.x.bitPattern
            && q.y.bitPattern == known.y.bitPattern && q.z.bitPattern == known.z.bitPattern
        let forward = same ? fusedForward : q.rotate(axis)
        let horizontal = max(1e-3, (forward.x * forward.x + forward.y * forward.y).squareRoot())
        let axisTilt = fusion.tiltUncertainty * abs(forward.z) / horizontal
        let heading = fusion.headingUncertainty
        let departure = monitor.calibrationDepartureHeadingError
        let suspected = swing.suspectedHeadingError * Angle.degreesPerRadian
        return min(180, (heading * heading + axisTilt * axisTilt + departure * departure + suspected * suspected)
            .squareRoot())
    }

    /// The fusion's settings with the compass error it starts from taken from
    /// the calibration: the profile's residual, or an uncalibrated guess.
    static func fusionSettings(_ settings: Settings) -> AttitudeFusion.Settings {
        var fusion = settings.fusionSettings
        fusion.vehicleForwardAxis = settings.forwardAxis.vector
        let dip = Self.dip(settings)
        fusion.compassError = settings.calibrationStatus.map {
            max(settings.accuracy.minimumCalibrationError, $0.headingError(dip: dip))
        } ?? settings.accuracy.uncalibratedError
        return fusion
    }

    /// The field's strength and dip where both are known: the model's, else the profile's.
    static func referenceField(_ settings: Settings) -> ExpectedField? {
        if let field = settings.expectedField, field.dip != nil { return field }
        guard let status = settings.calibrationStatus, let dip = status.dip else { return nil }
        return ExpectedField(strength: status.fieldStrength, dip: dip)
    }

    /// The dip the compass error is judged at, degrees: the profile's, the model's, or a middle latitude's.
    static func dip(_ settings: Settings) -> Double {
        settings.calibrationStatus?.dip ?? settings.expectedField?.dip ?? 60
    }
}
