import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Raw counts from one scan (buffered) or one poll, stamped in Unix nanoseconds.
struct CaptureEvent {
    var timeNs: Int64 = 0
    var hasMagnetometer = false
    var hasAccelerometer = false
    var hasGyroscope = false
    var magnetometer = RawTriple.zero
    var accelerometer = RawTriple.zero
    var gyroscope = RawTriple.zero
}

/// Where capture events come from.
protocol CaptureEngine: AnyObject {
    /// Blocks until the next event; nil once `cancellation` is cancelled.
    func next(_ cancellation: IIOCancellation) throws(IIOSourceError) -> CaptureEvent?
    /// Scans dropped because the consumer fell behind.
    var droppedScans: Int { get }
    /// An accelerometer scan (which makes a sample) is already read and waiting.
    var hasQueuedAccelerometerScan: Bool { get }
    func stop()
}

/// The system clocks in nanoseconds. Package-wide: the simulated board's feeder keeps
/// time as the capture engines do.
package enum Clock {
    package static func nanoseconds(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Sleeps until `time` on the monotonic clock (ns), or until a signal.
    package static func sleep(untilMonotonic time: Int64) {
        var ts = timespec(tv_sec: Int(time / 1_000_000_000), tv_nsec: Int(time % 1_000_000_000))
        _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
    }

    /// Unix ns minus `id`'s ns, now.
    package static func offsetToRealtime(_ id: clockid_t) -> Int64 {
        if id == CLOCK_REALTIME { return 0 }
        let a = nanoseconds(CLOCK_REALTIME), b = nanoseconds(id), c = nanoseconds(CLOCK_REALTIME)
        return (a / 2 + c / 2) - b
    }

    /// The clock named in `current_timestamp_clock`.
    static func id(named name: String) -> clockid_t? {
        switch name {
        case "realtime": return CLOCK_REALTIME
        case "monotonic": return CLOCK_MONOTONIC
        case "monotonic_raw": return CLOCK_MONOTONIC_RAW
        case "realtime_coarse": return CLOCK_REALTIME_COARSE
        case "monotonic_coarse": return CLOCK_MONOTONIC_COARSE
        case "boottime": return CLOCK_BOOTTIME
        case "tai": return CLOCK_TAI
        default: return nil
        }
    }
}

/// A fixed-size ring of events between capture threads and the consumer, with
/// one pending error. Preallocated: nothing is allocated per scan.
final class EventQueue: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var ring: [CaptureEvent]
    private var head = 0
    private var count = 0
    private var error: IIOSourceError?
    private(set) var dropped = 0
    /// Queued events that carry an accelerometer scan.
    private var accelerometerEvents = 0

    init(capacity: Int) {
        ring = Array(repeating: CaptureEvent(), count: max(16, capacity))
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    /// Appends events under one lock; the oldest are dropped when the ring is full.
    func push(_ body: (_ append: (CaptureEvent) -> Void) -> Void) {
        pthread_mutex_lock(mutex)
        body { e in
            if count == ring.count {
                if ring[head].hasAccelerometer { accelerometerEvents -= 1 }
                head = (head + 1) % ring.count
                count -= 1
                dropped += 1
            }
            ring[(head + count) % ring.count] = e
            count += 1
            if e.hasAccelerometer { accelerometerEvents += 1 }
        }
        pthread_cond_signal(cond)
        pthread_mutex_unlock(mutex)
    }

    func fail(_ e: IIOSourceError) {
        pthread_mutex_lock(mutex)
        if error == nil { error = e }
        pthread_cond_signal(cond)
        pthread_mutex_unlock(mutex)
    }

    var droppedCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return dropped
    }

    var hasAccelerometerEvent: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return accelerometerEvents > 0
    }

    enum Wait { case event(CaptureEvent), timedOut, cancelled }

    /// The next event; queued events come before a pending error. Waits in short
    /// slices so that a cancellation from another thread is seen within 50 ms.
    func pop(timeoutNs: Int64, cancellation: IIOCancellation) throws(IIOSourceError) -> Wait {
        let deadline = Clock.nanoseconds(CLOCK_MONOTONIC) + timeoutNs
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0, error == nil {
            if cancellation.isCancelled { return .cancelled }
            let now = Clock.nanoseconds(CLOCK_MONOTONIC)
            if now >= deadline { return .timedOut }
            let wake = min(deadline, now + 50_000_000)
            var ts = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
            _ = pthread_cond_timedwait(cond, mutex, &ts)
        }
        if count > 0 {
            let e = ring[head]
            head = (head + 1) % ring.count
            count -= 1
            if e.hasAccelerometer { accelerometerEvents -= 1 }
            return .event(e)
        }
        throw error!
    }
}

/// Lets another thread (a signal handler's, say) end a blocked
/// ``IIOSensorSource/nextSample()``: it returns nil, the end of the stream,
/// within about 50 ms.
public final class IIOCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .releasing) }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
