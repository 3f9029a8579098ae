/// Records a route from fixes: start, pause, resume, stop; distance, times and
/// speeds; GPX export.
///
/// **Distance without jitter.** A receiver standing still reports positions
/// that wander within its accuracy; summing fix-to-fix distances adds that
/// wander up to kilometres an hour. Instead the recorder keeps an *anchor*,
/// the last point counted, and counts a fix only when it lies beyond the
/// combined accuracy of the anchor and the fix (each fix's reported accuracy,
/// or `assumedAccuracy`, and at least `minimumStep`): the two accuracy circles
/// no longer overlap, so the device has certainly moved. Then the whole
/// geodesic from the anchor counts and the fix becomes the anchor. Fixes within
/// the circles are recorded but move nothing. Slow real motion is not lost: it
/// keeps pulling away from the fixed anchor until it is counted in full, one
/// step of at least the accuracy at a time. What is left out is at most one
/// step's worth at the end, and curves tighter than the accuracy (cut as chords).
///
/// **Moving time.** When a fix reports its speed (a receiver's Doppler speed,
/// good to a tenth of a m/s and untouched by position jitter), the second since
/// the previous fix is moving time if that speed is at least
/// `minimumMovingSpeed`. Without reported speeds, a counted step's interval is
/// moving time if its average speed reaches that: then a short stop followed by
/// a fast step is counted as moving, which reported speeds avoid.
///
/// A pause ends the current GPX segment; resume starts a new one with a fresh
/// anchor, so the way covered while paused is not counted. Times are the fix
/// and command times given (Unix seconds): the recorder has no clock.
public struct RouteRecorder: Sendable {
    public enum State: String, Sendable, Equatable {
        case idle, recording, paused, stopped
    }

    /// What the recorder did with one fix.
    public enum FixOutcome: Sendable, Equatable {
        /// Not recording (idle, paused or stopped): the fix was not recorded.
        case notRecording
        /// Invalid position or time, or not after the previous fix: not recorded.
        case refused
        /// Recorded; within the accuracy of the anchor, so no motion counted.
        case stationary
        /// Recorded and counted: `step` metres from the previous anchor.
        case moved(step: Double)
    }

    public let settings: Settings
    public private(set) var state: State = .idle
    /// The recorded fixes, one array per segment (a pause starts a new one).
    public private(set) var segments: [[Location]] = []

    private var distance = 0.0
    private var movingTime = 0.0
    /// The end of the last interval counted as moving.
    private var movingUntil = -Double.infinity
    private var closedElapsed = 0.0
    private var recordingSince: Double?
    private var lastCommandTime = -Double.infinity
    private var anchor: Location?
    private var currentSpeed: Double?
    private var maximumSpeed: Double?

    public init(settings: Settings = Settings()) throws(LocationSettingError) {
        try settings.validate()
        self.settings = settings
    }

    // MARK: Commands

    /// Starts a new recording (from idle or after stop; the old one is discarded).
    public mutating func start(at time: Double) throws(RouteRecorderError) {
        try command("start", at: time, allowed: [.idle, .stopped])
        segments = []
        distance = 0
        movingTime = 0
        movingUntil = -.infinity
        closedElapsed = 0
        currentSpeed = nil
        maximumSpeed = nil
        beginInterval(at: time)
    }

    public mutating func pause(at time: Double) throws(RouteRecorderError) {
        try command("pause", at: time, allowed: [.recording])
        endInterval(at: time, state: .paused)
    }

    public mutating func resume(at time: Double) throws(RouteRecorderError) {
        try command("resume", at: time, allowed: [.paused])
        beginInterval(at: time)
    }

    /// Ends the recording; it stays readable (statistics, GPX) until the next start.
    public mutating func stop(at time: Double) throws(RouteRecorderError) {
        try command("stop", at: time, allowed: [.recording, .paused])
        endInterval(at: time, state: .stopped)
    }

    private mutating func command(_ name: String, at time: Double, allowed: Set<State>) throws(RouteRecorderError) {
        guard allowed.contains(state) else { throw RouteRecorderError(command: name, state: state, timeWentBack: false) }
        guard time.isFinite, time >= lastCommandTime, time >= (segments.last?.last?.timestamp ?? -.infinity) else {
            throw RouteRecorderError(command: name, state: state, timeWentBack: true)
        }
        lastCommandTime = time
    }

    private mutating func beginInterval(at time: Double) {
        state = .recording
        recordingSince = time
        segments.append([])
        anchor = nil
    }

    private mutating func endInterval(at time: Double, state: State) {
        if let since = recordingSince { closedElapsed += time - since }
        recordingSince = nil
        self.state = state
    }

    // MARK: Fixes

    /// Records one fix (pass the fixes a ``LocationFilter`` accepted).
    @discardableResult
    public mutating func add(_ fix: Location) -> FixOutcome {
        guard state == .recording, let since = recordingSince else { return .notRecording }
        guard fix.coordinate != nil, fix.timestamp.isFinite, fix.timestamp >= since,
              fix.timestamp > (segments.last?.last?.timestamp ?? -.infinity) else { return .refused }
        let previous = segments[segments.count - 1].last
        segments[segments.count - 1].append(fix)
        if let speed = fix.speed, let previous, speed >= settings.minimumMovingSpeed {
            countMoving(from: previous.timestamp, to: fix.timestamp)
        }
        guard let from = anchor else {
            anchor = fix
            observeSpeed(fix.speed ?? 0)
            return .stationary
        }
        let step = from.distance(to: fix) ?? 0
        guard step > threshold(from, fix) else {
            observeSpeed(fix.speed ?? 0)
            return .stationary
        }
        let interval = fix.timestamp - from.timestamp
        let stepSpeed = interval > 0 ? step / interval : 0
        distance += step
        if fix.speed == nil, stepSpeed >= settings.minimumMovingSpeed { countMoving(from: from.timestamp, to: fix.timestamp) }
        anchor = fix
        observeSpeed(fix.speed ?? stepSpeed)
        return .moved(step: step)
    }

    /// Adds [start, end] to the moving time, without counting any second twice.
    private mutating func countMoving(from start: Double, to end: Double) {
        movingTime += max(0, end - max(start, movingUntil))
        movingUntil = max(movingUntil, end)
    }

    /// The distance beyond which two fixes cannot be the same place.
    private func threshold(_ a: Location, _ b: Location) -> Double {
        let accuracy = { (l: Location) in l.horizontalAccuracy ?? settings.assumedAccuracy }
        return max(settings.minimumStep, accuracy(a) + accuracy(b))
    }

    private mutating func observeSpeed(_ speed: Double) {
        currentSpeed = speed
        maximumSpeed = max(maximumSpeed ?? 0, speed)
    }

    // MARK: Results

    /// The figures at `now` (Unix seconds; nil: the last fix or command time), which
    /// counts toward the elapsed time while recording.
    public func statistics(at now: Double? = nil) -> RouteStatistics {
        var elapsed = closedElapsed
        if let since = recordingSince {
            let end = now ?? max(lastCommandTime, segments.last?.last?.timestamp ?? since)
            elapsed += max(0, end - since)
        }
        return RouteStatistics(state: state, distance: distance, elapsedTime: elapsed, movingTime: movingTime,
                               currentSpeed: currentSpeed, averageSpeed: movingTime > 0 ? distance / movingTime : nil,
                               maximumSpeed: maximumSpeed, pointCount: segments.reduce(0) { $0 + $1.count })
    }

    /// The recording as one GPX track, one segment per recording interval.
    public func gpx(name: String? = nil, creator: String = "Lodestone") -> GPXDocument {
        let track = GPXTrack(name: name, segments: segments.map { $0.map(GPXPoint.init) })
        return GPXDocument(creator: creator, name: name, time: segments.first?.first?.timestamp, tracks: [track])
    }
}
