/// A smooth function of time (seconds) that also gives its first two
/// derivatives: an angle of a scripted motion, a speed, a height.
///
/// Built from a few shapes (constants, ramps, sines, smooth steps, pulse
/// trains) with sums and products, so a scenario reads like its description
/// and every rate it implies is exact.
public struct TimeFunction: Sendable {
    private let evaluate: @Sendable (Double) -> Jet

    public init(_ evaluate: @escaping @Sendable (Double) -> Jet) {
        self.evaluate = evaluate
    }

    /// Value, rate and acceleration at time `t`.
    public func callAsFunction(_ t: Double) -> Jet { evaluate(t) }

    public static func constant(_ c: Double) -> TimeFunction {
        let jet = Jet(c)
        return TimeFunction { _ in jet }
    }

    public static let zero = constant(0)

    /// `start + rate × t`.
    public static func linear(start: Double = 0, rate: Double) -> TimeFunction {
        TimeFunction { t in Jet(start + rate * t, rate: rate) }
    }

    /// `amplitude × sin(2π t / period + phase)`.
    public static func sinusoid(amplitude: Double, period: Double, phase: Double = 0) -> TimeFunction {
        let omega = 2 * Double.pi / period
        return TimeFunction { t in
            let x = omega * t + phase
            let s = sine(x), c = cosine(x)
            return Jet(amplitude * s, rate: amplitude * omega * c, acceleration: -amplitude * omega * omega * s)
        }
    }

    /// A sum of sines: irregular waves, a road's vibration, a hand's tremor.
    public static func waves(_ components: [Wave]) -> TimeFunction {
        let omegas = components.map { 2 * Double.pi / $0.period }
        return TimeFunction { t in
            var sum = Jet.zero
            for (w, omega) in zip(components, omegas) {
                let x = omega * t + w.phase
                let s = sine(x), c = cosine(x)
                sum = sum + Jet(w.amplitude * s, rate: w.amplitude * omega * c,
                                acceleration: -w.amplitude * omega * omega * s)
            }
            return sum
        }
    }

    /// One sine component of ``waves(_:)``.
    public struct Wave: Hashable, Sendable {
        public var amplitude: Double
        public var period: Double
        public var phase: Double

        public init(amplitude: Double, period: Double, phase: Double = 0) {
            self.amplitude = amplitude
            self.period = period
            self.phase = phase
        }
    }

    /// 0 until `start`, then a smooth rise to 1 over `duration` seconds: fades a motion in.
    public static func smoothStep(start: Double, duration: Double) -> TimeFunction {
        TimeFunction { t in SmoothStep.jet(t, start: start, duration: duration) }
    }

    /// The quantity of a pulse train (a heading changed by turns, a speed by braking).
    public static func pulses(_ train: PulseTrain) -> TimeFunction {
        TimeFunction { t in train(t) }
    }

    /// The rate of a pulse train (a yaw rate, an acceleration), with its derivatives.
    public static func pulseRate(_ train: PulseTrain) -> TimeFunction {
        TimeFunction { t in train.rate(at: t) }
    }

    /// This function with its argument moved: `f(t − delay)`.
    public func delayed(by delay: Double) -> TimeFunction {
        let f = evaluate
        return TimeFunction { t in f(t - delay) }
    }

    /// The function applied to each value: `g(f(t))`, with `g` given on jets.
    public func map(_ g: @escaping @Sendable (Jet) -> Jet) -> TimeFunction {
        let f = evaluate
        return TimeFunction { t in g(f(t)) }
    }

    public static func + (a: TimeFunction, b: TimeFunction) -> TimeFunction {
        let f = a.evaluate, g = b.evaluate
        return TimeFunction { t in f(t) + g(t) }
    }

    public static func - (a: TimeFunction, b: TimeFunction) -> TimeFunction {
        let f = a.evaluate, g = b.evaluate
        return TimeFunction { t in f(t) - g(t) }
    }

    public static func * (a: TimeFunction, b: TimeFunction) -> TimeFunction {
        let f = a.evaluate, g = b.evaluate
        return TimeFunction { t in f(t) * g(t) }
    }

    public static func * (s: Double, a: TimeFunction) -> TimeFunction {
        let f = a.evaluate
        return TimeFunction { t in s * f(t) }
    }

    public static func + (a: TimeFunction, c: Double) -> TimeFunction {
        let f = a.evaluate
        return TimeFunction { t in f(t) + c }
    }

    public static prefix func - (a: TimeFunction) -> TimeFunction {
        let f = a.evaluate
        return TimeFunction { t in -f(t) }
    }
}
