import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore
import LodestonePosition

/// The heading pipeline assembled once, for the CLI, the service and the Swift API.
///
/// ```
/// raw sample → hard-iron tracking → accelerometer correction → speed and track
///            → HeadingPipeline (calibration, fusion or compass, environment, filter)
///            → Heading + events (true north, calibration, disturbance, forward axis vertical)
/// ```
///
/// It owns the calibration profiles chosen for the source's devices, online
/// hard-iron tracking and its saving, true north from a fixed or changing
/// position (with the model's zones), and the ground speed and track a live
/// position gives the fusion. Events come out in one typed form
/// (``HeadingEvent``), in the order they arise: true north, calibration
/// updates, the pipeline's, then `headingUnavailable` when the forward axis
/// stays near vertical (``VerticalAxisDetector``).
///
/// Hosts feed samples (``process(_:)``), position updates
/// (``positionUpdated(_:)``) and take the events; they choose how to print or
/// send them. A host with per-client filters (the service) calls
/// ``estimate(_:)`` and ``complete(_:)`` instead of ``process(_:)``.
public struct HeadingSession: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Forward axis, fusion mode, smoothing; the calibration fields are set from the profiles.
        public var estimator: HeadingEstimator.Settings
        /// Core Location's headingFilter for ``process(_:)``, degrees.
        public var headingFilter: Double
        /// Which calibration profiles to apply.
        public var calibration: CalibrationChoice
        /// Follow a changed hard iron from the readings of normal use.
        public var hardIronTracking: Bool
        public var trueNorth: TrueNorth.Settings

        public init(estimator: HeadingEstimator.Settings = .init(), headingFilter: Double = 1,
                    calibration: CalibrationChoice = .automatic, hardIronTracking: Bool = false,
                    trueNorth: TrueNorth.Settings = .init()) {
            self.estimator = estimator
            self.headingFilter = headingFilter
            self.calibration = calibration
            self.hardIronTracking = hardIronTracking
            self.trueNorth = trueNorth
        }
    }

    /// When hard-iron updates are written to their profile file.
    public enum CalibrationSaving: Sendable {
        /// Right away, on the sample path (a command-line run).
        case immediately(AtomicFile.Options)
        /// By the host, off the sample path: ``takeCalibrationUpdates()``.
        case byHost
    }

    public private(set) var settings: Settings
    public private(set) var calibration: SessionCalibration
    public private(set) var pipeline: HeadingPipeline
    public private(set) var trueNorth: TrueNorth
    private var tracking: HardIronTracking?
    private var verticalAxis = VerticalAxisDetector()
    private let saving: CalibrationSaving
    private let clock: any SessionClock
    private var events: [HeadingEvent] = []
    private var pendingUpdates: [CalibrationUpdate] = []
    /// Unix seconds of sample time 0; nil until known (then the clock's now at the first sample).
    public private(set) var wallClockStart: Double?
    private var needsStart = true
    private var nextTrueNorthUpdate = -Double.infinity
    /// Speed and track are the live position's (or nil), not the samples' own.
    private var aidsWithLivePosition: Bool

    /// Re-evaluate true north after this much sample time (fix ages, the model date).
    static let trueNorthInterval = 1.0

    /// A session with the calibration already loaded (``SessionCalibration/load(_:for:store:)``).
    public init(settings: Settings, calibration: SessionCalibration, clock: any SessionClock = SystemClock(),
                saving: CalibrationSaving = .immediately(.init())) {
        self.settings = settings
        self.calibration = calibration
        self.clock = clock
        self.saving = saving
        pipeline = HeadingPipeline(settings: settings.estimator, headingFilter: settings.headingFilter)
        trueNorth = TrueNorth(settings: settings.trueNorth)
        tracking = settings.hardIronTracking ? HardIronTracking(calibration) : nil
        aidsWithLivePosition = settings.trueNorth.position.isLive
    }

    /// A session for a source made by `devices`, with the profiles `settings` choose for them.
    public init(settings: Settings, devices: SourceDevices, store: CalibrationProfileStore = CalibrationProfileStore(),
                clock: any SessionClock = SystemClock(), saving: CalibrationSaving = .immediately(.init())) throws(SessionError) {
        let calibration = try SessionCalibration.load(settings.calibration, for: devices, store: store)
        self.init(settings: settings, calibration: calibration, clock: clock, saving: saving)
    }

    /// What is applied and tracked, one line each: for standard error or the service's log.
    public var notes: [String] {
        calibration.notes + (tracking.map { [$0.startNote] } ?? [])
    }

    // MARK: Samples

    /// Starts the smoothing afresh at the next sample, with `wallClockStart` the Unix
    /// time of sample time 0 (nil: the clock's now at the next sample). Call before the
    /// first sample, and when samples resume after a pause.
    public mutating func start(wallClockStart: Double?) {
        self.wallClockStart = wallClockStart
        needsStart = true
        nextTrueNorthUpdate = -.infinity
    }

    /// One sample through the whole path; the heading when the headingFilter lets it through.
    public mutating func process(_ sample: SensorSample) -> Heading? {
        guard let estimate = estimate(sample) else { return nil }
        return pipeline.deliver(estimate)
    }

    /// One sample through the whole path without the headingFilter (the caller filters).
    public mutating func estimate(_ raw: SensorSample) -> HeadingEstimate? {
        if needsStart { startEstimator(at: raw.time) }
        if raw.time >= nextTrueNorthUpdate || raw.time < nextTrueNorthUpdate - 2 * Self.trueNorthInterval {
            refreshTrueNorth(timestamp: raw.time)
        }
        if tracking != nil { track(raw) }
        var sample = aided(raw)
        if let a = calibration.accelerometer { sample.acceleration = a.apply(sample.acceleration) }
        let estimate = pipeline.estimator.update(sample)
        if pipeline.hasEvents {
            for e in pipeline.takeEvents() { events.append(HeadingEvent(e, timestamp: raw.time)) }
        }
        if let estimate { watchForwardAxis(at: estimate.time) }
        return estimate
    }

    /// `sample` with the ground speed and track of the latest fresh fix when a live
    /// position is in use (nil without a fresh fix); else as it came (a log's own columns).
    public func aided(_ sample: SensorSample) -> SensorSample {
        guard aidsWithLivePosition else { return sample }
        var s = sample
        s.speed = trueNorth.motion?.speed
        s.track = trueNorth.motion?.track
        return s
    }

    /// A full ``Heading`` (attitude, accuracy, true heading) for an estimate of the current
    /// state. Mutating only so that it runs in place (no copy of the pipeline).
    public mutating func complete(_ estimate: HeadingEstimate) -> Heading {
        pipeline.complete(estimate)
    }

    /// The estimator made at the first sample after a start, when the wall clock of
    /// sample time 0 is known (for the calibration's age).
    private mutating func startEstimator(at time: Double) {
        if wallClockStart == nil { wallClockStart = clock.wall() - time }
        var s = settings.estimator
        calibration.apply(to: &s)
        s.wallClockStart = wallClockStart
        s.expectedField = trueNorth.expectedField
        pipeline.estimator = HeadingEstimator(settings: s)
        pipeline.filter.reset()
        needsStart = false
    }

    private mutating func track(_ raw: SensorSample) {
        let unixTime = (wallClockStart ?? 0) + raw.time
        guard let adoption = tracking!.calibration.add(raw.magneticField, time: raw.time, unixTime: unixTime) else { return }
        pipeline.replaceCalibration(adoption.calibration, status: adoption.status)
        calibration.adopt(adoption)
        let update = CalibrationUpdate(adoption: adoption, path: tracking!.path, timestamp: raw.time)
        switch saving {
        case .immediately(let options): events.append(update.save(options: options).event)
        case .byHost: pendingUpdates.append(update)
        }
    }

    /// Raises `headingUnavailable` when the forward axis has stayed near vertical, and
    /// ends it when the axis has stayed away: the headings alone only say "invalid".
    private mutating func watchForwardAxis(at time: Double) {
        let isVertical = pipeline.estimator.isForwardAxisVertical
        guard let change = verticalAxis.update(isVertical: isVertical, time: time) else { return }
        let axis = settings.estimator.forwardAxis
        switch change {
        case .started:
            events.append(.forwardAxisVertical(axis, pointsUp: pipeline.estimator.forwardAxisUp > 0,
                                               limit: settings.estimator.minimumAxisElevation, timestamp: time))
        case .ended:
            events.append(.forwardAxisUsable(axis, timestamp: time))
        }
    }

    // MARK: Events

    /// Whether events wait to be taken: one branch per sample for a host.
    public var hasEvents: Bool { !events.isEmpty }

    /// The events since the last call, in the order they arose.
    public mutating func takeEvents() -> [HeadingEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Whether hard-iron updates wait for the host to save them.
    public var hasCalibrationUpdates: Bool { !pendingUpdates.isEmpty }

    /// Hard-iron updates adopted since the last call, for a host that saves them
    /// itself (``CalibrationSaving/byHost``): ``CalibrationUpdate/save(options:)`` gives the event.
    public mutating func takeCalibrationUpdates() -> [CalibrationUpdate] {
        defer { pendingUpdates.removeAll() }
        return pendingUpdates
    }

    // MARK: Position

    /// An update from the live position source; true north is re-evaluated at once.
    public mutating func positionUpdated(_ update: PositionUpdate) {
        trueNorth.received(update, at: clock.monotonic())
        if case .message = update { return }
        refreshTrueNorth(timestamp: nil)
    }

    /// Re-evaluates true north now (fix ages, the model date); a host without
    /// samples flowing calls it from time to time.
    public mutating func refreshTrueNorth() {
        refreshTrueNorth(timestamp: nil)
    }

    private mutating func refreshTrueNorth(timestamp: Double?) {
        if let timestamp { nextTrueNorthUpdate = timestamp + Self.trueNorthInterval }
        let unixTime = timestamp.flatMap { t in wallClockStart.map { $0 + t } } ?? clock.wall()
        for var e in trueNorth.update(now: clock.monotonic(), unixTime: unixTime) {
            e.timestamp = timestamp
            events.append(e)
        }
        pipeline.declination = trueNorth.declination
        pipeline.setExpectedField(trueNorth.expectedField)
    }

    // MARK: Changes

    /// New settings or profiles while running (a reload): the smoothing starts again
    /// only when the estimator's settings or the calibration changed; true north keeps
    /// its position when its settings did not change.
    public mutating func reconfigure(settings new: Settings, calibration newCalibration: SessionCalibration) {
        let restart = new.estimator != settings.estimator || !newCalibration.holdsSameCorrection(as: calibration)
        if new.trueNorth != settings.trueNorth {
            trueNorth = TrueNorth(settings: new.trueNorth)
            nextTrueNorthUpdate = -.infinity
        }
        if new.hardIronTracking != settings.hardIronTracking || restart {
            tracking = new.hardIronTracking ? HardIronTracking(newCalibration) : nil
        }
        if new.estimator.forwardAxis != settings.estimator.forwardAxis {
            if verticalAxis.isInForce {
                events.append(.forwardAxisChanged(from: settings.estimator.forwardAxis, to: new.estimator.forwardAxis))
            }
            verticalAxis.reset()
        }
        if new.headingFilter != settings.headingFilter {
            pipeline.filter = HeadingFilter(threshold: new.headingFilter)
        }
        settings = new
        calibration = newCalibration
        aidsWithLivePosition = new.trueNorth.position.isLive
        if restart { needsStart = true }
    }
}

extension SessionCalibration {
    /// Same corrections and quality: a reload that found the same profiles changes nothing.
    func holdsSameCorrection(as other: SessionCalibration) -> Bool {
        magnetometer == other.magnetometer && status == other.status && accelerometer == other.accelerometer
    }
}
