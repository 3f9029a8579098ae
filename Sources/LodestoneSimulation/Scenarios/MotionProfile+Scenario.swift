import LodestoneCore

extension MotionProfile.Segment {
    /// Heading, pitch and roll `t` seconds into the segment, as jets (degrees).
    func angles(at t: Double) -> (heading: Jet, pitch: Jet, roll: Jet) {
        switch self {
        case .hold(let a, _):
            return (Jet(a.heading), Jet(a.pitch), Jet(a.roll))
        case .move(let from, let to, let d):
            // The same cubic easing as `attitude(at:)`, with its derivatives.
            let u = max(0, min(1, t / d))
            let inside = t > 0 && t < d
            let eased = Jet(u * u * (3 - 2 * u), rate: inside ? 6 * u * (1 - u) / d : 0,
                            acceleration: inside ? (6 - 12 * u) / (d * d) : 0)
            let step = Angle.difference(from: from.heading, to: to.heading)
            return (step * eased + from.heading, (to.pitch - from.pitch) * eased + from.pitch,
                    (to.roll - from.roll) * eased + from.roll)
        case .spin(let a, let rate, _):
            return (Jet(a.heading + rate * t, rate: rate), Jet(a.pitch), Jet(a.roll))
        case .sway(let c, let amp, let period, let d):
            let phase = Jet(2 * Double.pi * t / period, rate: 2 * Double.pi / period)
            let e = Self.swayEnvelope(t, period: period, duration: d)
            return (amp.heading * (e * Jet.sin(phase)) + c.heading,
                    amp.pitch * (e * Jet.sin(1.3 * phase + 1)) + c.pitch,
                    amp.roll * (e * Jet.sin(0.7 * phase + 2)) + c.roll)
        }
    }
}

extension MotionProfile {
    /// Heading, pitch and roll at `t` from the start; past the end, the last attitude, still.
    func angles(at t: Double) -> (heading: Jet, pitch: Jet, roll: Jet) {
        var start = 0.0
        for s in segments {
            if t < start + s.duration { return s.angles(at: max(0, t - start)) }
            start += s.duration
        }
        guard let last = segments.last else { return (.zero, .zero, .zero) }
        let a = last.angles(at: last.duration)
        return (Jet(a.heading.value), Jet(a.pitch.value), Jet(a.roll.value))
    }

    /// The profile as a path whose rates are exact.
    public var attitudePath: AttitudePath {
        let profile = self
        return AttitudePath(heading: TimeFunction { profile.angles(at: $0).heading },
                            pitch: TimeFunction { profile.angles(at: $0).pitch },
                            roll: TimeFunction { profile.angles(at: $0).roll })
    }

    /// The profile as a scenario of a board turned in place, scored from the start.
    public func scenario(name: String) -> Scenario {
        Scenario(name: name, summary: "scripted attitude profile '\(name)'", duration: duration, attitude: attitudePath,
                 settlingTime: 0)
    }
}
