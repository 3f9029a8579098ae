import LodestoneCalibrationStore
import LodestoneCore
import LodestoneIIO
import LodestoneSession
import LodestoneSteering

/// Headings for Swift code, in the manner of `CLLocationManager`.
///
/// ```swift
/// let manager = HeadingManager(.iio(IIOSourceConfiguration(rate: 100)))
/// manager.headingFilter = 5
/// manager.position = .gpsd(PositionSetting.defaultGPSD)   // true heading, and speed aiding
/// for await heading in manager.headings() {
///     print(heading.magneticHeading, heading.trueHeading ?? "unknown")
/// }
/// ```
///
/// It runs the library's ``HeadingSession``, as `lodestone watch` and `serve`
/// do: the calibration profiles made for the source's devices (or those given),
/// hard-iron tracking, true heading from a fixed position or gpsd, and the same
/// events. The source is read on a thread of its own, so a blocking sensor never
/// holds up Swift concurrency. Settings may change while running; they apply
/// from the next sample, and the smoothing starts again only when the estimator
/// or the calibration changed. Every stream from ``headings()`` gets every
/// delivered heading; ``events()`` and ``steering()`` report the rest; a
/// ``delegate`` gets the same through callbacks.
public final class HeadingManager: Sendable {
    struct State {
        var settings: HeadingSession.Settings
        var generation = 0
        var running = false
        var stopRequested = false
        var restartRequested = false
        var stop: StopFlag?
        var cancelRead: (@Sendable () -> Void)?
        var latest: Heading?
        var latestAdvice: SteeringAdvice?
        var notes: [String] = []
        var delegate = WeakDelegate()
        var target: GeoCoordinate?
        var steeringSettings = TurnAdvisor.Settings()
        var steeringGeneration = 0
    }

    struct WeakDelegate {
        weak var value: (any HeadingManagerDelegate)?
    }

    let state: Locked<State>
    let origin: Origin
    let headingStreams = StreamFanOut<Heading>(keepingNewest: 256)
    let updateStreams = StreamFanOut<HeadingUpdate>(keepingNewest: 256)
    let eventStreams = StreamFanOut<HeadingEvent>(keepingNewest: 64)
    let adviceStreams = StreamFanOut<SteeringAdvice>(keepingNewest: 64)

    /// The samples' origin: opened by the reader when it starts, or handed over.
    enum Origin: Sendable {
        case configured(HeadingSource)
        case custom(SourceBox, SourceDevices)
    }

    /// A manager for `source` with `settings` (the defaults of `lodestone watch`:
    /// headingFilter 1, the device's calibration profiles, no position).
    public init(_ source: HeadingSource, settings: HeadingSession.Settings = .init()) {
        state = Locked(State(settings: settings))
        origin = .configured(source)
    }

    /// A manager for the source and settings of a configuration (`HeadingFlags`, a config file).
    public convenience init(configuration: HeadingConfiguration) {
        let source: HeadingSource
        switch configuration.source {
        case .iio(let c): source = .iio(c)
        case .replay(let r): source = .log(path: r.path, speed: r.speed)
        case .simulated(let s): source = .simulated(rate: s.rate)
        }
        self.init(source, settings: configuration.session)
    }

    /// A manager that reads a source of the caller's; the manager owns it from now on.
    /// `devices` names its sensors for their calibration profiles (anonymous by default).
    public init(source: some SensorSource, devices: SourceDevices = SourceDevices(), settings: HeadingSession.Settings = .init()) {
        state = Locked(State(settings: settings))
        origin = .custom(SourceBox(source), devices)
    }

    // MARK: Settings

    /// Every setting at once; a change applies from the next sample.
    public var settings: HeadingSession.Settings {
        get { state.withLock { $0.settings } }
        set {
            precondition(newValue.headingFilter >= 0 && newValue.headingFilter.isFinite, "headingFilter must be a finite number ≥ 0")
            state.withLock {
                $0.settings = newValue
                $0.generation += 1
            }
        }
    }

    /// Minimum change in degrees before a new heading is delivered (Core Location's `headingFilter`).
    public var headingFilter: Double {
        get { settings.headingFilter }
        set { settings.headingFilter = newValue }
    }

    /// Which body axis the heading is of (Core Location's `headingOrientation`).
    public var headingOrientation: ForwardAxis {
        get { settings.estimator.forwardAxis }
        set { settings.estimator.forwardAxis = newValue }
    }

    /// Where the board is, for true heading (and, from gpsd, speed aiding): none (the
    /// default: `trueHeading` is nil), a fixed position, or gpsd.
    public var position: PositionSetting {
        get { settings.trueNorth.position }
        set { settings.trueNorth.position = newValue }
    }

    /// Which calibration profiles apply: by default those in `calibration/` made for the
    /// source's devices, as `lodestone watch` chooses them.
    public var calibration: CalibrationChoice {
        get { settings.calibration }
        set { settings.calibration = newValue }
    }

    /// Follow a changed hard iron from the readings of normal use, and rewrite the profile file.
    public var hardIronTracking: Bool {
        get { settings.hardIronTracking }
        set { settings.hardIronTracking = newValue }
    }

    /// Gets headings, events and steering advice through callbacks; held weakly.
    public var delegate: (any HeadingManagerDelegate)? {
        get { state.withLock { $0.delegate.value } }
        set { state.withLock { $0.delegate.value = newValue } }
    }

    // MARK: Steering

    /// Steering toward a target: with each delivered heading and a known position, the
    /// bearing, distance and which way to turn (``steering()``); nil stops it.
    public var steeringTarget: GeoCoordinate? {
        get { state.withLock { $0.target } }
        set {
            state.withLock {
                $0.target = newValue
                $0.latestAdvice = nil
                $0.steeringGeneration += 1
            }
        }
    }

    /// How the advice is made (ahead tolerance, hysteresis, arrival radius).
    public var steeringSettings: TurnAdvisor.Settings {
        get { state.withLock { $0.steeringSettings } }
        set {
            state.withLock {
                $0.steeringSettings = newValue
                $0.steeringGeneration += 1
            }
        }
    }

    // MARK: Results

    /// The most recent delivered heading (Core Location's `heading`).
    public var heading: Heading? { state.withLock { $0.latest } }

    /// The most recent steering advice, while steering.
    public var steeringAdvice: SteeringAdvice? { state.withLock { $0.latestAdvice } }

    /// What the running session applies (the calibration profiles, hard-iron tracking).
    public var notes: [String] { state.withLock { $0.notes } }

    /// Whether this manager's source can give headings: for IIO, a magnetometer and an
    /// accelerometer are there (Core Location's `headingAvailable()`).
    public var headingAvailable: Bool {
        switch origin {
        case .configured(.iio(let c)): return Self.headingAvailable(uri: c.uri)
        case .configured(.log(let path, _)): return (try? ReplaySessionSource(ReplaySettings(path: path))) != nil
        case .configured(.simulated), .custom: return true
        }
    }

    /// Whether the IIO context at `uri` has a magnetometer and an accelerometer.
    public static func headingAvailable(uri: String = "local:") -> Bool {
        guard let devices = try? IIODeviceCatalog.list(uri: uri) else { return false }
        let kinds = Set(devices.flatMap { $0.sensors.map(\.kind) })
        return kinds.contains(.magnetometer) && kinds.contains(.accelerometer)
    }

    // MARK: Streams

    /// A stream of delivered headings; starts updating if needed. It ends when updates
    /// stop or the source ends.
    public func headings() -> AsyncStream<Heading> {
        let stream = headingStreams.stream()
        startUpdatingHeading()
        return stream
    }

    /// A stream of delivered headings, each with the steering advice made for it (while
    /// steering toward ``steeringTarget`` with a known position); starts updating if needed.
    public func updates() -> AsyncStream<HeadingUpdate> {
        let stream = updateStreams.stream()
        startUpdatingHeading()
        return stream
    }

    /// A stream of events (calibration prompts, disturbances, true north, source faults);
    /// it ends after the source ended (`sourceEnded` or `sourceFailed`).
    public func events() -> AsyncStream<HeadingEvent> {
        eventStreams.stream()
    }

    /// A stream of steering advice toward ``steeringTarget``, with each delivered heading and
    /// each new fix of a live position (steering follows the position too); ends when updates stop.
    public func steering() -> AsyncStream<SteeringAdvice> {
        adviceStreams.stream()
    }

    // MARK: Running

    /// Starts reading the source on its own thread. Does nothing if already running; just
    /// after a stop, it starts again once the stopped reader has let go of the source.
    public func startUpdatingHeading() {
        let stop = StopFlag()
        let start = state.withLock { s -> Bool in
            guard !s.running else {
                if s.stopRequested { s.restartRequested = true }
                return false
            }
            s.running = true
            s.stopRequested = false
            s.stop = stop
            return true
        }
        guard start else { return }
        do {
            try SessionThread.start { [self] in HeadingReader(manager: self, stop: stop).run() }
        } catch {
            state.withLock { $0.running = false }
            post(HeadingEvent(.sourceFailed, .fatal, error.description))
        }
    }

    /// Stops after the current sample (a blocked sensor read returns at once) and ends
    /// the heading and steering streams at once: nothing is delivered after the call,
    /// not even a heading the reader had already made.
    public func stopUpdatingHeading() {
        let (stop, cancel) = state.withLock { s -> (StopFlag?, (@Sendable () -> Void)?) in
            s.stopRequested = true
            s.restartRequested = false
            return (s.stop, s.cancelRead)
        }
        closeDeliveryStreams()
        stop?.set()
        cancel?()
    }

    // MARK: Publishing (the reader's thread)

    /// Publishes an event to every event stream and the delegate.
    func post(_ event: HeadingEvent) {
        eventStreams.yield(event)
        let delegate = state.withLock { $0.delegate.value }
        delegate?.headingManager(self, didReceive: event)
    }

    /// Publishes a delivered heading and the advice made for it, unless the caller stopped.
    func publish(_ heading: Heading, advice: SteeringAdvice?) {
        let (stopped, delegate) = state.withLock { s in
            if !s.stopRequested {
                s.latest = heading
                if let advice { s.latestAdvice = advice }
            }
            return (s.stopRequested, s.delegate.value)
        }
        guard !stopped else { return }
        headingStreams.yield(heading)
        updateStreams.yield(HeadingUpdate(heading: heading, advice: advice))
        delegate?.headingManager(self, didUpdate: heading)
        if let advice { publish(advice, delegate: delegate) }
    }

    /// Publishes advice made for a new fix (between headings), unless the caller stopped.
    func publish(_ advice: SteeringAdvice) {
        let (stopped, delegate) = state.withLock { s in
            if !s.stopRequested { s.latestAdvice = advice }
            return (s.stopRequested, s.delegate.value)
        }
        guard !stopped else { return }
        publish(advice, delegate: delegate)
    }

    private func publish(_ advice: SteeringAdvice, delegate: (any HeadingManagerDelegate)?) {
        adviceStreams.yield(advice)
        delegate?.headingManager(self, didUpdate: advice)
    }

    /// The reader ended. When the source ended by itself, every stream finishes once its
    /// reader has taken what it holds. When the caller stopped, the stop closed the heading
    /// and steering streams already (the event streams stay for a restart), and those
    /// handed out since belong to the new reader that starts when the caller started again.
    func finish(ended: Bool) {
        let restart = state.withLock { s in
            s.running = false
            s.cancelRead = nil
            defer { s.restartRequested = false }
            return s.restartRequested
        }
        if restart {
            startUpdatingHeading()
        } else if ended {
            headingStreams.finish()
            adviceStreams.finish()
            updateStreams.finish()
            eventStreams.finish()
        }
    }

    /// Ends the heading and steering streams at once, dropping what their readers have not taken.
    private func closeDeliveryStreams() {
        headingStreams.close()
        updateStreams.close()
        adviceStreams.close()
    }
}

/// A delivered heading and the steering advice made for it, if steering.
public struct HeadingUpdate: Sendable {
    public var heading: Heading
    public var advice: SteeringAdvice?
}

/// A caller's source, read only by the manager's one reading thread.
///
/// The manager takes the source over (`init(source:)`): a caller must not use it
/// afterwards. That ownership hand-over is what makes the unchecked `Sendable`
/// sound. (A `sending` parameter said so too, but Swift 6.3 released a concrete
/// value passed through it twice.)
final class SourceBox: @unchecked Sendable {
    private var source: any SensorSource

    init(_ source: some SensorSource) {
        self.source = source
    }

    func next() throws -> SensorSample? {
        try source.nextSample()
    }
}
