/// Watches the calibrated field for disturbances and for a calibration that no longer holds.
///
/// Two time scales, one per question:
/// - **Disturbance** (a magnet passing, steel nearby): the field strength
///   (and, while the board is still, the dip) averaged over ~20 ms departs
///   from the reference by more than a tolerance. It starts after
///   ``Settings/onDelay`` and ends after ``Settings/offDelay`` below 60 % of
///   the tolerance: hysteresis in level and in time, so it never flaps.
/// - **Calibration** (hard iron changed, wrong profile): the same quantities
///   averaged over ~30 s stay off the *expected* field (profile or model) for
///   ``Settings/persistence``. Then `calibrationNeeded` fires, at most once
///   per ``Settings/minimumPromptInterval`` (10 minutes by default, as
///   Windows' sensor guidance suggests), and each reason re-arms only after
///   its condition cleared.
///
/// The strength reference is the calibration's field when there is one,
/// otherwise it is learned from undisturbed data. The dip reference is the
/// model's inclination, else the profile's, else learned.
public struct MagneticEnvironmentMonitor: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Relative strength departure that counts as a disturbance.
        public var strengthTolerance: Double
        /// Dip departure that counts as a disturbance, degrees.
        public var dipTolerance: Double
        /// How long a departure must last to start a disturbance, seconds (a few
        /// samples: one noisy reading is not a magnet).
        public var onDelay: Double
        /// How long the field must be back to end it, seconds.
        public var offDelay: Double
        /// Time constant of the learned strength and dip references, seconds.
        public var referenceTimeConstant: Double
        /// Relative strength departure, long-term, that means the calibration no longer holds.
        public var calibrationStrengthTolerance: Double
        /// Dip departure, long-term, that means the calibration no longer holds, degrees.
        public var calibrationDipTolerance: Double
        /// How long the long-term departure must last before asking for calibration, seconds.
        public var persistence: Double
        /// Minimum time between two calibration prompts, seconds.
        public var minimumPromptInterval: Double
        /// A profile older than this is stale, seconds (default 180 days).
        public var maximumCalibrationAge: Double
        /// How long ``MagneticEnvironmentMonitor/calibrationDeparture`` remembers its
        /// largest value, seconds: long enough for a slowly turning board to come
        /// round from where a field showed in the strength to where it turns the
        /// heading most (a quarter turn at 0.3 °/s).
        public var departureMemory: Double
        /// Time constant over which the strength the departure is measured from
        /// follows the long-term strength, seconds. The earth's field changes
        /// every reading's strength alike from place to place, which turns no
        /// heading: by about 1 % over a hundred kilometres, so that a car's
        /// change of place, followed over half an hour, leaves less behind than
        /// a good fit's residual. A hard iron drifting over minutes is not followed.
        public var placeTime: Double

        public init(strengthTolerance: Double = 0.08, dipTolerance: Double = 5, onDelay: Double = 0.03,
                    offDelay: Double = 1, referenceTimeConstant: Double = 60,
                    calibrationStrengthTolerance: Double = 0.12, calibrationDipTolerance: Double = 6,
                    persistence: Double = 60, minimumPromptInterval: Double = 600,
                    maximumCalibrationAge: Double = 180 * 86_400, departureMemory: Double = 300,
                    placeTime: Double = 1800) {
            self.strengthTolerance = strengthTolerance
            self.dipTolerance = dipTolerance
            self.onDelay = onDelay
            self.offDelay = offDelay
            self.referenceTimeConstant = referenceTimeConstant
            self.calibrationStrengthTolerance = calibrationStrengthTolerance
            self.calibrationDipTolerance = calibrationDipTolerance
            self.persistence = persistence
            self.minimumPromptInterval = minimumPromptInterval
            self.maximumCalibrationAge = maximumCalibrationAge
            self.departureMemory = departureMemory
            self.placeTime = placeTime
        }
    }

    public let settings: Settings
    /// The profile in use (nil: never calibrated) and the model's field, when known.
    public private(set) var calibration: CalibrationStatus?
    public private(set) var expected: ExpectedField? {
        didSet { expectedSinDip = (expected?.dip ?? calibration?.dip).map { sine(degrees: $0) } }
    }
    /// Sine of the expected dip (model, else profile), kept to skip trigonometry per sample.
    private var expectedSinDip: Double?
    /// Unix seconds of sample time 0, for the profile's age; nil skips that check.
    public let wallClockStart: Double?

    /// Field strength (µT) and sine of the dip, averaged over ~20 ms.
    public private(set) var strength = 0.0
    public private(set) var sinDip = 0.0 { didSet { dipDegrees = asinDegrees(sinDip) } }
    /// The references the short-term values are compared with.
    public private(set) var referenceStrength = 0.0
    public private(set) var referenceSinDip = 0.0 { didSet { referenceDip = asinDegrees(referenceSinDip) } }
    /// The two dips in degrees, worked out when they change (50 times a second
    /// at most) rather than for every heading's accuracy that asks.
    private var dipDegrees = 0.0
    /// The reference dip in degrees (expected, or learned).
    public private(set) var referenceDip = 0.0
    public private(set) var isDisturbed = false
    /// Whether the dip is being measured (the board is still enough).
    public private(set) var dipIsValid = false
    /// Events not yet collected with ``takeEvents()``.
    public private(set) var events: [MagneticEvent] = []

    private var started = false
    private var elapsed = 0.0
    private var dipSamples = 0.0
    private var departingFor = 0.0
    private var calmFor = 0.0
    private var longStrength = 0.0
    private var longSinDip = 0.0
    private var longDipValid = false
    private var strengthOffFor = 0.0
    private var dipOffFor = 0.0
    private var lastPrompt = -Double.infinity
    /// The reasons that may prompt again (each re-arms once its condition cleared); one bit per reason.
    private var armed = ArmedReasons.all
    /// Set by ``replaceCalibration(_:)``: the averages restart from the next reading.
    private var restartAverages = false
    /// The learned dip reference restarts from the next still reading.
    private var relearnDip = false

    public init(settings: Settings = Settings(), calibration: CalibrationStatus?, expected: ExpectedField? = nil,
                wallClockStart: Double? = nil) {
        self.settings = settings
        self.calibration = calibration
        self.expected = expected
        self.wallClockStart = wallClockStart
        settledStrength = calibration?.fieldStrength ?? 0
        expectedSinDip = (expected?.dip ?? calibration?.dip).map { sine(degrees: $0) }
    }

    /// The model's field changed (moved, or a new date).
    public mutating func setExpected(_ field: ExpectedField?) {
        expected = field
        if let dip = field?.dip { referenceSinDip = sine(degrees: dip) }
    }

    /// The calibration in use changed (online hard-iron tracking, a reload):
    /// compare with `status` from now on. The short- and long-term averages,
    /// made of readings corrected the old way, restart from the next reading;
    /// a disturbance in progress ends by the usual rule once the field is back
    /// near the reference, and prompts keep their once-per-interval limit.
    public mutating func replaceCalibration(_ status: CalibrationStatus?) {
        calibration = status
        expectedSinDip = (expected?.dip ?? status?.dip).map { sine(degrees: $0) }
        if let status { referenceStrength = status.fieldStrength }
        if expected?.dip == nil, let dip = status?.dip {
            referenceSinDip = sine(degrees: dip)
            dipSamples = .infinity
        }
        restartAverages = started
        settledStrength = status?.fieldStrength ?? 0
        calibrationDeparture = 0
    }

    /// A learned reference was learned through the old calibration: learn it
    /// again from the next readings (a running mean at first, as at the start).
    private mutating func restartLearning(strength b: Double) {
        elapsed = 0
        if calibration == nil {
            referenceStrength = b
            settledStrength = b
        }
        if dipSamples.isFinite {
            dipSamples = 0
            relearnDip = true
        }
    }

    /// Hands over the events raised since the last call.
    /// An event of the pipeline's own, delivered with the monitor's.
    public mutating func report(_ event: MagneticEvent) {
        events.append(event)
    }

    public mutating func takeEvents() -> [MagneticEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Strength departure in µT (signed) and dip departure in degrees (0 when not measured).
    public var departure: (strength: Double, dip: Double) {
        (strength - referenceStrength, dipIsValid ? abs(dipDegrees - referenceDip) : 0)
    }

    /// How far the field has left the calibrated sphere, µT: the long-term
    /// strength's departure from the strength the readings settle to (the
    /// profile's field at first, following over ``Settings/placeTime``) beyond
    /// the fit's own residual, the largest over ``Settings/departureMemory``
    /// (fading). A hard iron that drifted, or a field the room added, changes
    /// the strength at some attitudes and hardly at all at others, where it
    /// turns the heading instead; the memory carries the former to the latter.
    /// Without a profile the readings' own first strength stands for the
    /// profile's, and a departure within the tolerance a profile's field is
    /// checked against (``Settings/calibrationStrengthTolerance``) is none: a
    /// hard iron no calibration took out changes the strength by more as the
    /// board turns, and the heading by far more.
    public private(set) var calibrationDeparture = 0.0
    /// The strength the departure is measured from, µT.
    private var settledStrength: Double

    /// What ``calibrationDeparture`` may do to the heading, degrees. A body-fixed
    /// offset shows in the strength by its part along the field; the horizontal
    /// part shows by at most `cos(dip)` of itself and turns the heading, once
    /// the board has turned it across the field, by itself over the horizontal
    /// field: so a departure `d` may turn the heading by `d / (B·cos²(dip))`.
    public var calibrationDepartureHeadingError: Double {
        guard calibrationDeparture > 0, referenceStrength > 0 else { return 0 }
        let cosDipSquared = max(1e-6, 1 - referenceSinDip * referenceSinDip)
        return min(180, calibrationDeparture / (referenceStrength * cosDipSquared) * Angle.degreesPerRadian)
    }

    /// A lower bound on the disturbing field, µT: the largest departure seen
    /// during this disturbance, fading over 10 s. A magnet carried with the
    /// board changes the strength a lot in some attitudes and hardly at all in
    /// others; the bound remembers the former.
    public private(set) var disturbanceBound = 0.0

    /// Feeds one sample: the calibrated field, the unit up vector (both body
    /// frame), whether the board is still enough to trust the dip, the sample
    /// time and the time step.
    public mutating func update(field: Vector3, up: Vector3, still: Bool, time: Double, dt: Double) {
        let b = field.length
        guard b > 0 else { return }
        let s = -field.dot(up) / b
        guard started else {
            start(strength: b, sinDip: s, still: still, time: time)
            return
        }
        guard dt > 0 else { return }
        if restartAverages {
            restartAverages = false
            strength = b
            longStrength = b
            if still {
                sinDip = s
                longSinDip = s
            }
            dipIsValid = still
            longDipValid = still
            departingFor = 0
            strengthOffFor = 0
            dipOffFor = 0
            restartLearning(strength: b)
        }
        elapsed += dt
        // ~20 ms averages: a magnet swept past the board shows for well under 0.1 s,
        // and the 8 % tolerance is already ~5σ of single-sample noise (0.7 µT of 44 µT).
        let fast = min(1, dt * 50)
        strength += (b - strength) * fast
        if still {
            sinDip = dipIsValid ? sinDip + (s - sinDip) * fast : s
            dipIsValid = true
        } else {
            dipIsValid = false
        }
        if relearnDip, still {
            referenceSinDip = sinDip
            relearnDip = false
        }
        let slow = min(1, dt * (1.0 / 30))
        longStrength += (b - longStrength) * slow
        noteCalibrationDeparture(allowance: calibration?.fitResidual
                                    ?? settings.calibrationStrengthTolerance * settledStrength, dt: dt)
        if still {
            longSinDip = longDipValid ? longSinDip + (s - longSinDip) * slow : s
            longDipValid = true
        }
        detectDisturbance(dt: dt)
        if isDisturbed {
            let d = departure
            let now = (d.strength * d.strength + (d.dip * Angle.radiansPerDegree * strength) * (d.dip * Angle.radiansPerDegree * strength)).squareRoot()
            disturbanceBound = max(now, disturbanceBound * (1 - min(1, dt / 10)))
        } else {
            disturbanceBound = 0
        }
        learnReferences(still: still, dt: dt)
        checkCalibration(time: time, dt: dt)
    }

    private mutating func start(strength b: Double, sinDip s: Double, still: Bool, time: Double) {
        started = true
        strength = b
        longStrength = b
        referenceStrength = calibration?.fieldStrength ?? b
        settledStrength = calibration?.fieldStrength ?? b
        if let dip = expected?.dip ?? calibration?.dip {
            referenceSinDip = sine(degrees: dip)
            dipSamples = .infinity
        } else {
            referenceSinDip = s
        }
        sinDip = s
        longSinDip = s
        dipIsValid = still
        longDipValid = still
        if calibration == nil {
            prompt(.neverCalibrated, "no calibration profile is in use: run 'lodestone calibrate'", time: time)
        } else if let created = calibration?.created, let start = wallClockStart,
                  start + time - created > settings.maximumCalibrationAge {
            let days = Int((start + time - created) / 86_400)
            prompt(.fitStale, "the calibration profile is \(days) days old; recalibrate", time: time)
        }
    }

    /// Whether the dip departs from the reference by more than `tolerance`
    /// degrees, compared in sine space (no inverse trigonometry per sample):
    /// Δdip ≈ Δsin / cos(dip).
    private func dipDeparts(_ s: Double, from reference: Double, by tolerance: Double) -> Bool {
        let d = s - reference, t = tolerance * Angle.radiansPerDegree
        return d * d > t * t * (1 - reference * reference)
    }

    @inline(__always)
    private mutating func detectDisturbance(dt: Double) {
        let departure = abs(strength - referenceStrength)
        let strengthOff = departure > settings.strengthTolerance * referenceStrength
        let dipOff = dipIsValid && dipDeparts(sinDip, from: referenceSinDip, by: settings.dipTolerance)
        if !isDisturbed {
            departingFor = strengthOff || dipOff ? departingFor + dt : 0
            if departingFor >= settings.onDelay {
                isDisturbed = true
                calmFor = 0
                let reason: DisturbanceReason = strengthOff ? .fieldMagnitudeOff : .dipOff
                events.append(.disturbanceStarted(reason, detail: strengthOff
                    ? "field strength \(rounded(strength)) µT, expected \(rounded(referenceStrength)) µT"
                    : "dip \(rounded(dipDegrees))°, expected \(rounded(referenceDip))°"))
            }
        } else {
            let calm = departure < 0.6 * settings.strengthTolerance * referenceStrength
                && !(dipIsValid && dipDeparts(sinDip, from: referenceSinDip, by: 0.6 * settings.dipTolerance))
            calmFor = calm ? calmFor + dt : 0
            if calmFor >= settings.offDelay {
                isDisturbed = false
                departingFor = 0
                events.append(.disturbanceEnded(detail: "field strength \(rounded(strength)) µT is back near \(rounded(referenceStrength)) µT"))
            }
        }
    }

    @inline(__always)
    private mutating func learnReferences(still: Bool, dt: Double) {
        guard !isDisturbed, departingFor == 0 else { return }
        // Warm up as a running mean, then follow slowly.
        let tau = min(settings.referenceTimeConstant, elapsed)
        let k = dt < tau ? dt / tau : 1
        if calibration == nil {
            referenceStrength += (strength - referenceStrength) * k
        }
        if still, dipSamples.isFinite {
            dipSamples += 1
            referenceSinDip += (sinDip - referenceSinDip) * k
        }
    }

    private mutating func noteCalibrationDeparture(allowance: Double, dt: Double) {
        settledStrength += (longStrength - settledStrength) * min(1, dt / settings.placeTime)
        let now = max(0, abs(longStrength - settledStrength) - allowance)
        calibrationDeparture = max(now, calibrationDeparture * (1 - min(1, dt / settings.departureMemory)))
    }

    @inline(__always)
    private mutating func checkCalibration(time: Double, dt: Double) {
        // Long-term departures from the *expected* field, when there is one to compare with.
        if let target = calibration?.fieldStrength {
            let off = abs(longStrength - target) > settings.calibrationStrengthTolerance * target
            strengthOffFor = off ? strengthOffFor + dt : 0
            if strengthOffFor >= settings.persistence {
                prompt(.fieldMagnitudeOff, "for \(Int(settings.persistence)) s the field strength has been \(rounded(longStrength)) µT instead of \(rounded(target)) µT: the hard iron changed or the profile is wrong", time: time)
            } else if !off {
                armed.arm(.fieldMagnitudeOff)
            }
        }
        if let dip = expectedSinDip, longDipValid {
            let off = dipDeparts(longSinDip, from: dip, by: settings.calibrationDipTolerance)
            dipOffFor = off ? dipOffFor + dt : 0
            if dipOffFor >= settings.persistence {
                prompt(.dipOff, "for \(Int(settings.persistence)) s the dip has been \(rounded(asinDegrees(longSinDip)))° instead of \(rounded(asinDegrees(dip)))°", time: time)
            } else if !off {
                armed.arm(.dipOff)
            }
        }
    }

    private mutating func prompt(_ reason: CalibrationReason, _ detail: String, time: Double) {
        guard armed.isArmed(reason), time - lastPrompt >= settings.minimumPromptInterval else { return }
        armed.disarm(reason)
        lastPrompt = time
        events.append(.calibrationNeeded(reason, detail: detail))
    }

    private func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}

/// A set of calibration reasons as bits: checked and re-armed every sample, so no hashing.
struct ArmedReasons: Sendable {
    private var bits: UInt8

    static let all = ArmedReasons(bits: 0xFF)

    private static func bit(_ reason: CalibrationReason) -> UInt8 {
        switch reason {
        case .neverCalibrated: return 1
        case .fitStale: return 2
        case .fieldMagnitudeOff: return 4
        case .dipOff: return 8
        }
    }

    func isArmed(_ reason: CalibrationReason) -> Bool { bits & Self.bit(reason) != 0 }
    mutating func arm(_ reason: CalibrationReason) { bits |= Self.bit(reason) }
    mutating func disarm(_ reason: CalibrationReason) { bits &= ~Self.bit(reason) }
}
