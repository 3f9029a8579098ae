#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneNetwork

/// The clocks a session and a source runner read, behind a protocol so that
/// tests can drive time by hand.
public protocol SessionClock: Sendable {
    /// Seconds on a clock that never jumps (fix ages, back-off, pacing).
    func monotonic() -> Double
    /// Unix seconds (model dates, the wall clock of sample time 0).
    func wall() -> Double
    /// Waits up to `seconds`; false when woken early (a stop, or a change the caller must look at).
    func sleep(_ seconds: Double) -> Bool
}

/// The system's clocks. `sleep` wakes early when `stop` is set (checked every 50 ms).
public struct SystemClock: SessionClock {
    public let stop: StopFlag?

    public init(stop: StopFlag? = nil) {
        self.stop = stop
    }

    public func monotonic() -> Double { SystemTime.monotonic() }

    public func wall() -> Double { SystemTime.wall() }

    public func sleep(_ seconds: Double) -> Bool {
        var left = seconds
        while left > 0 {
            if stop?.isSet == true { return false }
            let step = min(left, 0.05)
            var ts = timespec(tv_sec: Int(step), tv_nsec: Int((step - step.rounded(.down)) * 1e9))
            nanosleep(&ts, nil)
            left -= step
        }
        return stop?.isSet != true
    }
}
