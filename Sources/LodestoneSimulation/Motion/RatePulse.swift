/// A rate that ramps smoothly from zero up to `level`, holds it, and ramps back:
/// the yaw rate of a turn, or the acceleration of a braking.
///
/// Each ramp is a quintic smoothstep lasting `ramp` seconds; `duration`
/// includes both ramps. The rate's integral over the pulse is
/// `level × (duration − ramp)`.
public struct RatePulse: Hashable, Sendable {
    public var start: Double
    public var duration: Double
    public var ramp: Double
    public var level: Double

    public init(start: Double, duration: Double, ramp: Double, level: Double) {
        precondition(duration >= 2 * ramp && ramp > 0, "a pulse needs room for both ramps")
        self.start = start
        self.duration = duration
        self.ramp = ramp
        self.level = level
    }

    /// A pulse that changes the quantity by `total` at up to `rate` (its
    /// magnitude), starting at `start`; one too short to reach `rate` peaks lower.
    public init(start: Double, total: Double, rate: Double, ramp: Double) {
        let magnitude = max(abs(rate), 1e-12)
        let plateau = abs(total) / magnitude
        if plateau >= ramp {
            self.init(start: start, duration: plateau + ramp, ramp: ramp, level: total < 0 ? -magnitude : magnitude)
        } else {
            self.init(start: start, duration: 2 * ramp, ramp: ramp, level: total / ramp)
        }
    }

    public var end: Double { start + duration }

    /// The integral of the whole pulse.
    public var total: Double { level * (duration - ramp) }

    /// The rate, its slope and its curvature at `t` (zero outside the pulse).
    public func rate(at t: Double) -> Jet {
        guard t > start, t < end else { return .zero }
        let rise = SmoothStep.jet(t, start: start, duration: ramp)
        let fall = SmoothStep.jet(t, start: end - ramp, duration: ramp)
        return level * (rise - fall)
    }

    /// The integral of the rate from `start` to `t`.
    public func integral(at t: Double) -> Double {
        guard t > start else { return 0 }
        guard t < end else { return total }
        let up = SmoothStep.integral((t - start) / ramp) * ramp
        let down = SmoothStep.integral((t - end + ramp) / ramp) * ramp
        return level * (up - down)
    }
}
