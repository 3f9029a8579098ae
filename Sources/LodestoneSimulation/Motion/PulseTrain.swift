/// A quantity changed by a sequence of ``RatePulse``s: a heading changed by
/// turns, a speed changed by braking and accelerating.
///
/// Between pulses the quantity holds still; during one it changes at the
/// pulse's rate. Pulses must not overlap. Evaluation finds the pulse in use by
/// bisection, so long drives stay cheap.
public struct PulseTrain: Hashable, Sendable {
    public let initial: Double
    public let pulses: [RatePulse]
    /// The quantity at the start of each pulse.
    private let before: [Double]

    public init(initial: Double, pulses: [RatePulse]) {
        let sorted = pulses.sorted { $0.start < $1.start }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            precondition(a.end <= b.start + 1e-9, "pulses overlap at \(b.start) s")
        }
        self.initial = initial
        self.pulses = sorted
        var value = initial
        var before: [Double] = []
        for p in sorted {
            before.append(value)
            value += p.total
        }
        self.before = before
    }

    /// The quantity after the last pulse.
    public var final: Double { (before.last ?? initial) + (pulses.last?.total ?? 0) }

    /// Index of the last pulse starting at or before `t`, or nil.
    private func pulseIndex(at t: Double) -> Int? {
        var low = 0, high = pulses.count
        while low < high {
            let mid = (low + high) / 2
            if pulses[mid].start <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The quantity, its rate and its acceleration at `t`.
    public func callAsFunction(_ t: Double) -> Jet {
        guard let i = pulseIndex(at: t) else { return Jet(initial) }
        let p = pulses[i]
        let r = p.rate(at: t)
        return Jet(before[i] + p.integral(at: t), rate: r.value, acceleration: r.rate)
    }

    /// The rate, its slope and its curvature at `t`.
    public func rate(at t: Double) -> Jet {
        guard let i = pulseIndex(at: t) else { return .zero }
        return pulses[i].rate(at: t)
    }
}
