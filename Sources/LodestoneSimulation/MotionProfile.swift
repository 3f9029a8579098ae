import LodestoneCore

/// A scripted motion: a sequence of holds and smooth movements with known truth.
public struct MotionProfile: Hashable, Sendable {
    public enum Segment: Hashable, Sendable {
        /// Still at one attitude.
        case hold(BoardAttitude, duration: Double)
        /// A smooth (eased) rotation between two attitudes, the short way round.
        case move(from: BoardAttitude, to: BoardAttitude, duration: Double)
        /// Continuous yaw at `rate` degrees per second, starting from `start`.
        case spin(start: BoardAttitude, rate: Double, duration: Double)
        /// Continuous motion: heading, pitch and roll oscillate around `center`
        /// with the given amplitudes (degrees) and period (seconds). The swing
        /// fades in and out over a quarter period (or half the segment), so the
        /// segment starts and ends at `center` and joins its neighbours without a jump.
        case sway(center: BoardAttitude, amplitude: BoardAttitude, period: Double, duration: Double)

        public var duration: Double {
            switch self {
            case .hold(_, let d), .move(_, _, let d), .spin(_, _, let d), .sway(_, _, _, let d): return d
            }
        }

        /// Attitude `t` seconds into the segment.
        public func attitude(at t: Double) -> Quaternion {
            switch self {
            case .hold(let a, _):
                return a.quaternion
            case .move(let from, let to, let d):
                let u = max(0, min(1, t / d))
                let eased = u * u * (3 - 2 * u)
                let step = Angle.difference(from: from.heading, to: to.heading)
                return BoardAttitude(heading: from.heading + step * eased,
                                     pitch: from.pitch + (to.pitch - from.pitch) * eased,
                                     roll: from.roll + (to.roll - from.roll) * eased).quaternion
            case .spin(let a, let rate, _):
                return BoardAttitude(heading: a.heading + rate * t, pitch: a.pitch, roll: a.roll).quaternion
            case .sway(let c, let amp, let period, let d):
                let phase = 2 * Double.pi * t / period
                let e = Self.swayEnvelope(t, period: period, duration: d).value
                return BoardAttitude(heading: c.heading + e * amp.heading * sine(phase),
                                     pitch: c.pitch + e * amp.pitch * sine(phase * 1.3 + 1),
                                     roll: c.roll + e * amp.roll * sine(phase * 0.7 + 2)).quaternion
            }
        }

        /// The sway's fade: 0 at both ends, 1 after a quarter period, with its derivatives.
        static func swayEnvelope(_ t: Double, period: Double, duration: Double) -> Jet {
            let fade = min(period / 4, duration / 2)
            let rise = SmoothStep.jet(t, start: 0, duration: fade)
            let fall = SmoothStep.jet(duration - t, start: 0, duration: fade)
            return rise * Jet(fall.value, rate: -fall.rate, acceleration: fall.acceleration)
        }
    }

    public var segments: [Segment]

    public init(_ segments: [Segment]) {
        self.segments = segments
    }

    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// Truth attitude at time `t` from the start; holds the last attitude past the end.
    public func attitude(at t: Double) -> Quaternion {
        var start = 0.0
        for s in segments {
            if t < start + s.duration { return s.attitude(at: t - start) }
            start += s.duration
        }
        guard let last = segments.last else { return .identity }
        return last.attitude(at: last.duration)
    }
}
