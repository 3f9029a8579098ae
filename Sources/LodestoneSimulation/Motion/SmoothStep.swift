/// The quintic smoothstep s(u) = 6u⁵ − 15u⁴ + 10u³ on [0, 1]: 0 to 1 with zero
/// slope and curvature at both ends, so motions built from it have a
/// continuous angular acceleration and jerk-limited starts and stops.
enum SmoothStep {
    /// s(u), clamped outside [0, 1].
    static func value(_ u: Double) -> Double {
        guard u > 0 else { return 0 }
        guard u < 1 else { return 1 }
        return u * u * u * (10 + u * (-15 + 6 * u))
    }

    /// s′(u).
    static func slope(_ u: Double) -> Double {
        guard u > 0, u < 1 else { return 0 }
        return 30 * u * u * (1 + u * (-2 + u))
    }

    /// s″(u).
    static func curvature(_ u: Double) -> Double {
        guard u > 0, u < 1 else { return 0 }
        return 60 * u * (1 + u * (-3 + 2 * u))
    }

    /// ∫₀ᵘ s, which is ½ at u = 1.
    static func integral(_ u: Double) -> Double {
        guard u > 0 else { return 0 }
        guard u < 1 else { return 0.5 + (u - 1) }
        return u * u * u * u * (2.5 + u * (-3 + u))
    }

    /// s(u) for u = (t − start) / duration, as a jet in t.
    static func jet(_ t: Double, start: Double, duration: Double) -> Jet {
        let u = (t - start) / duration
        return Jet(value(u), rate: slope(u) / duration, acceleration: curvature(u) / (duration * duration))
    }
}
