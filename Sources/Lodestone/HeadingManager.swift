import Foundation
import Synchronization

/// Headings for Swift code, in the manner of `CLLocationManager`.
///
/// ```swift
/// let manager = HeadingManager(source: try LogReader(path: "walk.csv"))
/// manager.headingFilter = 5
/// for await heading in manager.headings() {
///     print(heading.magneticHeading, heading.trueHeading ?? "unknown")
/// }
/// ```
///
/// The source is read on a thread of its own, so a blocking sensor never
/// holds up Swift concurrency. Settings may change while running; they apply
/// from the next sample. Every stream from ``headings()`` gets every
/// delivered heading; ``events()`` reports calibration prompts, disturbances
/// and source faults.
public final class HeadingManager: Sendable {
    private struct State {
        var settings: HeadingEstimator.Settings
        var headingFilter: Double
        var declination: Declination?
        var generation = 0
        var running = false
        var stopRequested = false
        var headingContinuations: [Int: AsyncStream<Heading>.Continuation] = [:]
        var eventContinuations: [Int: AsyncStream<HeadingEvent>.Continuation] = [:]
        var nextID = 0
        var latest: Heading?
        var calibrationHandler: (@Sendable (String) -> Void)?
    }

    private let state: Mutex<State>
    private let source: SourceBox

    /// Creates a manager that will read `source` once started; the manager owns it from now on.
    public init(source: some SensorSource, settings: HeadingEstimator.Settings = .init(),
                headingFilter: Double = 1) {
        state = Mutex(State(settings: settings, headingFilter: headingFilter))
        self.source = SourceBox(source)
    }

    /// Minimum change in degrees before a new heading is delivered (Core Location's `headingFilter`).
    public var headingFilter: Double {
        get { state.withLock { $0.headingFilter } }
        set {
            precondition(newValue >= 0 && newValue.isFinite, "headingFilter must be a finite number ≥ 0")
            state.withLock {
                $0.headingFilter = newValue
                $0.generation += 1
            }
        }
    }

    /// Which body axis the heading is of (Core Location's `headingOrientation`).
    public var headingOrientation: ForwardAxis {
        get { state.withLock { $0.settings.forwardAxis } }
        set {
            state.withLock {
                $0.settings.forwardAxis = newValue
                $0.generation += 1
            }
        }
    }

    /// Declination for true heading; nil (the default) leaves `trueHeading` nil.
    public var declination: Declination? {
        get { state.withLock { $0.declination } }
        set {
            state.withLock {
                $0.declination = newValue
                $0.generation += 1
            }
        }
    }

    /// Called when the magnetometer needs calibrating, with the reason.
    public var onCalibrationNeeded: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.calibrationHandler } }
        set { state.withLock { $0.calibrationHandler = newValue } }
    }

    /// The most recent delivered heading (Core Location's `heading`).
    public var heading: Heading? { state.withLock { $0.latest } }

    /// A stream of delivered headings; starts updating if needed. It ends when
    /// updates stop or the source ends.
    public func headings() -> AsyncStream<Heading> {
        let stream = subscribe(\.headingContinuations, keepingNewest: 256)
        startUpdatingHeading()
        return stream
    }

    /// A stream of events (calibration prompts, disturbances, source faults).
    public func events() -> AsyncStream<HeadingEvent> {
        subscribe(\.eventContinuations, keepingNewest: 64)
    }

    /// A new stream whose continuation is kept in `subscribers` until it terminates.
    private func subscribe<Element>(_ subscribers: WritableKeyPath<State, [Int: AsyncStream<Element>.Continuation]> & Sendable,
                                    keepingNewest limit: Int) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let id = state.withLock { s -> Int in
            s.nextID += 1
            s[keyPath: subscribers][s.nextID] = continuation
            return s.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0[keyPath: subscribers].removeValue(forKey: id) }
        }
        return stream
    }

    /// Starts reading the source on its own thread. Does nothing if already running.
    public func startUpdatingHeading() {
        let start = state.withLock { s -> Bool in
            guard !s.running else { return false }
            s.running = true
            s.stopRequested = false
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "lodestone-heading"
        thread.start()
    }

    /// Stops after the current sample and ends the heading streams.
    public func stopUpdatingHeading() {
        state.withLock { $0.stopRequested = true }
    }

    /// Publishes an event to every event stream (and the calibration handler).
    public func post(_ event: HeadingEvent) {
        let (continuations, handler) = state.withLock { ($0.eventContinuations.values, $0.calibrationHandler) }
        for c in continuations { c.yield(event) }
        if case .calibrationNeeded(let reason) = event { handler?(reason) }
    }

    private func run() {
        var generation = -1
        var pipeline = HeadingPipeline()
        var backoff = 0.1
        var faulted = false
        var endError: String?
        while true {
            let snapshot = state.withLock { s -> (stop: Bool, generation: Int, settings: HeadingEstimator.Settings,
                                                 filter: Double, declination: Declination?) in
                (s.stopRequested, s.generation, s.settings, s.headingFilter, s.declination)
            }
            if snapshot.stop { break }
            if snapshot.generation != generation {
                // Keep the smoothing state when only the filter or declination changed.
                if generation < 0 || pipeline.estimator.settings != snapshot.settings {
                    pipeline.estimator = HeadingEstimator(settings: snapshot.settings)
                }
                pipeline.filter = HeadingFilter(threshold: snapshot.filter)
                pipeline.declination = snapshot.declination
                generation = snapshot.generation
            }
            let next: SensorSample?
            do {
                next = try source.next()
                if faulted {
                    faulted = false
                    backoff = 0.1
                    post(.sourceResumed)
                }
            } catch let error as any SensorSourceError where error.isTransient {
                faulted = true
                post(.sourceFault(message: error.description))
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 5)
                continue
            } catch {
                endError = "\(error)"
                break
            }
            guard let sample = next else { break }
            let delivered = pipeline.process(sample)
            if pipeline.hasEvents {
                for event in pipeline.takeEvents() { post(HeadingEvent(event)) }
            }
            guard let heading = delivered else { continue }
            let continuations = state.withLock { s -> Dictionary<Int, AsyncStream<Heading>.Continuation>.Values in
                s.latest = heading
                return s.headingContinuations.values
            }
            for c in continuations { c.yield(heading) }
        }
        let ended = state.withLock { s -> Bool in
            s.running = false
            return !s.stopRequested
        }
        if ended { post(.sourceEnded(error: endError)) }
        let (headingStreams, eventStreams) = state.withLock { s in
            (s.headingContinuations.values.map { $0 }, ended ? s.eventContinuations.values.map { $0 } : [])
        }
        for c in headingStreams { c.finish() }
        for c in eventStreams { c.finish() }
    }
}

/// The manager's source, read only by the manager's one reading thread.
///
/// The manager takes the source over (`init(source:)`): a caller must not use
/// it afterwards. That ownership hand-over is what makes the unchecked
/// `Sendable` sound. (A `sending` parameter said so too, but Swift 6.3
/// released a concrete value passed through it twice.)
private final class SourceBox: @unchecked Sendable {
    private var source: any SensorSource

    init(_ source: some SensorSource) {
        self.source = source
    }

    func next() throws -> SensorSample? {
        try source.nextSample()
    }
}
