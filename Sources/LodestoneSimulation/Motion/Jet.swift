/// A quantity and its first two time derivatives, carried together through
/// arithmetic (second-order forward-mode differentiation).
///
/// Scenarios describe angles and positions as smooth functions of time; jets
/// give their rates and accelerations exactly, so the simulated gyroscope and
/// accelerometer read the analytic truth instead of finite differences.
@frozen
public struct Jet: Hashable, Sendable {
    public var value: Double
    /// d/dt
    public var rate: Double
    /// d²/dt²
    public var acceleration: Double

    @inlinable
    public init(_ value: Double, rate: Double = 0, acceleration: Double = 0) {
        self.value = value
        self.rate = rate
        self.acceleration = acceleration
    }

    public static let zero = Jet(0)

    @inlinable public static func + (a: Jet, b: Jet) -> Jet {
        Jet(a.value + b.value, rate: a.rate + b.rate, acceleration: a.acceleration + b.acceleration)
    }

    @inlinable public static func - (a: Jet, b: Jet) -> Jet {
        Jet(a.value - b.value, rate: a.rate - b.rate, acceleration: a.acceleration - b.acceleration)
    }

    @inlinable public static prefix func - (a: Jet) -> Jet {
        Jet(-a.value, rate: -a.rate, acceleration: -a.acceleration)
    }

    /// The product rule, twice.
    @inlinable public static func * (a: Jet, b: Jet) -> Jet {
        Jet(a.value * b.value, rate: a.rate * b.value + a.value * b.rate,
            acceleration: a.acceleration * b.value + 2 * a.rate * b.rate + a.value * b.acceleration)
    }

    @inlinable public static func * (s: Double, a: Jet) -> Jet {
        Jet(s * a.value, rate: s * a.rate, acceleration: s * a.acceleration)
    }

    @inlinable public static func + (a: Jet, s: Double) -> Jet {
        Jet(a.value + s, rate: a.rate, acceleration: a.acceleration)
    }

    /// `f(a)` for a function with value `f`, slope `f1` and curvature `f2` at `a.value` (the chain rule).
    @inlinable
    public func composed(value f: Double, slope f1: Double, curvature f2: Double) -> Jet {
        Jet(f, rate: f1 * rate, acceleration: f2 * rate * rate + f1 * acceleration)
    }

    public static func sin(_ a: Jet) -> Jet {
        let s = sine(a.value), c = cosine(a.value)
        return a.composed(value: s, slope: c, curvature: -s)
    }

    public static func cos(_ a: Jet) -> Jet {
        let s = sine(a.value), c = cosine(a.value)
        return a.composed(value: c, slope: -s, curvature: -c)
    }

    /// atan(a), for angles such as a road's grade from its rise over run.
    public static func atan(_ a: Jet) -> Jet {
        let d = 1 / (1 + a.value * a.value)
        return a.composed(value: arcTangent(a.value), slope: d, curvature: -2 * a.value * d * d)
    }

    /// `a / b` for `b` away from zero (the quotient rule, twice).
    @inlinable public static func / (a: Jet, b: Jet) -> Jet {
        let inverse = b.composed(value: 1 / b.value, slope: -1 / (b.value * b.value),
                                 curvature: 2 / (b.value * b.value * b.value))
        return a * inverse
    }
}
