/// Why ``LocationFilter`` refused a fix. Each case names the fault and carries
/// the numbers a log line or a client needs to see what was wrong.
public enum LocationRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// Latitude NaN, infinite, or beyond ±90°.
    case latitudeOutOfRange(Double)
    /// Longitude NaN, infinite, or beyond ±180°.
    case longitudeOutOfRange(Double)
    /// The fix time is NaN or infinite.
    case timestampNotFinite(Double)
    /// The fix is stamped later than `now` plus the allowed clock lead.
    case fromTheFuture(timestamp: Double, now: Double)
    /// The fix is older than `maximumAge` at `now` (a stale cached fix, or a receiver's date gone wrong).
    case stale(timestamp: Double, now: Double)
    /// The fix is not later than the last one accepted (a repeat, or out of order).
    case outOfOrder(timestamp: Double, previous: Double)
    /// Worse than `desiredAccuracy` (nil: the source gave no accuracy, so it cannot be shown to meet it).
    case insufficientAccuracy(horizontalAccuracy: Double?, desired: Double)
    /// Reaching the fix from the last accepted one would need `speed` m/s, beyond `limit`.
    case implausibleJump(distance: Double, interval: Double, speed: Double, limit: Double)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let v):
            return "latitude \(v) is not a number of degrees in [-90, 90]"
        case .longitudeOutOfRange(let v):
            return "longitude \(v) is not a number of degrees in [-180, 180]"
        case .timestampNotFinite(let v):
            return "fix time \(v) is not a finite number of seconds"
        case let .fromTheFuture(t, now):
            return "fix time \(t) is \(t - now) s ahead of the clock; check the system clock or the receiver's date"
        case let .stale(t, now):
            return "fix time \(t) is \(now - t) s old; a stale fix, or a receiver's date gone wrong (GPS week rollover)"
        case let .outOfOrder(t, previous):
            return "fix time \(t) is not after the last accepted fix (\(previous)); a repeat or out of order"
        case let .insufficientAccuracy(accuracy, desired):
            let given = accuracy.map { "\($0) m" } ?? "not reported"
            return "horizontal accuracy \(given) does not meet desiredAccuracy \(desired) m"
        case let .implausibleJump(distance, interval, speed, limit):
            return "a jump of \(distance) m in \(interval) s (\(speed) m/s) is faster than the plausible \(limit) m/s"
        }
    }
}
