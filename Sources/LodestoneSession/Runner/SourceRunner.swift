import LodestoneCore

/// Reads a source for every live path (`watch`, `record`, `calibrate`, `serve`,
/// ``HeadingManager``): retries transient faults with back-off, reports the
/// fault once and the recovery, reports a sensor's health when it changes,
/// and paces replays and simulations by their own timestamps.
///
/// One call of ``next()`` returns one step: a sample, an event to report, the
/// end of the source, a failure, or `interrupted` when the clock's sleep was
/// woken early (a stop signal, or a change the host must look at; the sample
/// it was pacing is kept for the next call).
public struct SourceRunner<Source: SensorSource> {
    public struct Settings: Hashable, Sendable {
        /// The first wait after a transient fault, seconds; it doubles on each further fault.
        public var firstRetryDelay: Double
        /// The longest wait between retries, seconds.
        public var maximumRetryDelay: Double
        /// Source seconds per second of the monotonic clock (replays, simulations); nil
        /// takes samples as they come (sensors) or as fast as possible.
        public var pacing: Double?

        public init(firstRetryDelay: Double = 0.1, maximumRetryDelay: Double = 5, pacing: Double? = nil) {
            self.firstRetryDelay = firstRetryDelay
            self.maximumRetryDelay = maximumRetryDelay
            self.pacing = pacing
        }
    }

    public enum Step {
        case sample(SensorSample)
        case event(HeadingEvent)
        /// The source has no more samples (the end of a log, or a cancelled read).
        case ended
        /// A fault that retrying cannot clear.
        case failed(SessionError)
        /// The clock's sleep was woken early; call again when the host is ready.
        case interrupted
    }

    public var source: Source
    public var settings: Settings
    private let clock: any SessionClock
    private let health: (any SensorHealthReporting)?
    private var retryDelay: Double
    /// The description of the fault being retried; nil while the source works.
    private var fault: String?
    private var waitBeforeRetry: Double?
    private var pending: SensorSample?
    private var anchor: (monotonic: Double, time: Double)?
    private var healthSignature: UInt32 = 0

    /// `health` reports stuck and saturated sensors; by default the source's own, if it knows.
    public init(_ source: Source, settings: Settings = Settings(), clock: any SessionClock = SystemClock(),
                health: (any SensorHealthReporting)?? = nil) {
        self.source = source
        self.settings = settings
        self.clock = clock
        self.health = health ?? (source as? any SensorHealthReporting)
        retryDelay = settings.firstRetryDelay
    }

    /// Whether the source is failing and being retried.
    public var isFaulted: Bool { fault != nil }

    /// Forgets the pacing anchor: after a pause, pacing starts again from the next sample.
    public mutating func resetPacing() {
        anchor = nil
    }

    public mutating func next() -> Step {
        while true {
            if let wait = waitBeforeRetry {
                guard clock.sleep(wait) else { return .interrupted }
                waitBeforeRetry = nil
            }
            if let sample = pending {
                pending = nil
                return paced(sample)
            }
            let sample: SensorSample?
            do {
                sample = try source.nextSample()
            } catch let error as any SensorSourceError where error.isTransient {
                if let event = retry(after: error) { return .event(event) }
                continue
            } catch {
                return .failed(Self.sessionError(error))
            }
            guard let sample else { return .ended }
            return checked(sample)
        }
    }

    /// The sample, or first the recovery or the change of health it shows.
    private mutating func checked(_ sample: SensorSample) -> Step {
        if fault != nil {
            fault = nil
            retryDelay = settings.firstRetryDelay
            pending = sample
            return .event(HeadingEvent(.sourceResumed, .recovered, "the source works again"))
        }
        if let health, health.healthSignature != healthSignature {
            healthSignature = health.healthSignature
            pending = sample
            return .event(Self.healthEvent(health.healthProblems, timestamp: sample.time))
        }
        return paced(sample)
    }

    /// Schedules the wait before the next read; the event to report for a new kind of fault.
    private mutating func retry(after error: any SensorSourceError) -> HeadingEvent? {
        waitBeforeRetry = retryDelay
        retryDelay = min(retryDelay * 2, settings.maximumRetryDelay)
        anchor = nil
        guard fault != error.description else { return nil }
        fault = error.description
        return HeadingEvent(.sourceFault, HeadingEvent.Reason(faultOf: error), error.description)
    }

    /// Waits until the sample is due when pacing; starts again after a pause or a jump back.
    private mutating func paced(_ sample: SensorSample) -> Step {
        guard let speed = settings.pacing else { return .sample(sample) }
        let now = clock.monotonic()
        guard let a = anchor, sample.time >= a.time else {
            anchor = (now, sample.time)
            return .sample(sample)
        }
        let due = a.monotonic + (sample.time - a.time) / speed
        if due > now + 0.0005 {
            guard clock.sleep(due - now) else {
                pending = sample
                return .interrupted
            }
        } else if now - due > 1 {
            anchor = (now, sample.time) // fell behind by more than a second: do not race to catch up
        }
        return .sample(sample)
    }

    /// The event for the problems now: named by the highest-ranked, a stuck sensor first.
    static func healthEvent(_ problems: [SensorProblem], timestamp: Double) -> HeadingEvent {
        let flags = problems.map(\.sentence)
        let reason = problems.map(\.kind).max()?.reason ?? .sensorsHealthy
        let detail = flags.isEmpty ? "every sensor reads normally again" : flags.joined(separator: "; ")
        return HeadingEvent(.sensorHealth, reason, detail, timestamp: timestamp, flags: flags)
    }

    static func sessionError(_ error: any Error) -> SessionError {
        switch error {
        case let e as SessionError: return e
        case let e as SessionErrorConvertible: return e.sessionError
        default: return SessionError(.failure, "\(error)")
        }
    }
}

/// A source that knows when its sensors are stuck or saturated (IIO sources do).
public protocol SensorHealthReporting: AnyObject {
    /// Changes whenever the set of problems changes; cheap enough to read per sample.
    var healthSignature: UInt32 { get }
    /// What is wrong, one per problem; empty when all is well.
    var healthProblems: [SensorProblem] { get }
}

/// Errors of the edge modules that know their kind of problem.
protocol SessionErrorConvertible {
    var sessionError: SessionError { get }
}
