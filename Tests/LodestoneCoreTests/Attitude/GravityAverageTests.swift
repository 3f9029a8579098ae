import Foundation
import Testing
@testable import LodestoneCore

/// The resting strength, learned from the rest detector's windows: the
/// accelerations windows in motion hide only lengthen the specific force, so
/// they must not ratchet it up, while a stronger rest is still followed.
@Suite struct GravityAverageTests {
    let interval = 0.04

    func average() -> GravityAverage {
        GravityAverage(correlationTime: 1, persistenceTime: 5, accelerometerError: 0.1)
    }

    /// Feeds `seconds` of rest windows of `strength`, one per correction.
    func rest(_ g: inout GravityAverage, strength: Double, seconds: Double) {
        for _ in 0..<Int((seconds / interval).rounded()) {
            g.learnResting(strength: strength, dt: interval, learningTime: 10)
        }
    }

    /// A car that stood 20 s, then cruised for a minute whose windows passed
    /// for rest with a gentle pull across gravity (0.9 m/s², 0.04 m/s² of
    /// strength, within the accelerometer's error): learnt at once, the
    /// figure took 0.040 of the 0.041; the car's sustained accelerations
    /// then went unseen (the drives of seed 4 through a 10 Hz low-pass, 3.8°).
    @Test func windowsInMotionDoNotRaiseTheRestingStrength() {
        var g = average()
        rest(&g, strength: 9.807, seconds: 20)
        rest(&g, strength: 9.848, seconds: 60)
        #expect(g.restingStrength - 9.807 < 0.03, "resting strength \(g.restingStrength)")
    }

    /// A weaker rest is taken over the noise's learning time, and a stronger
    /// one (an uncalibrated part at rest in a new orientation) is still followed,
    /// more slowly.
    @Test func aWeakerRestIsLearnedAtOnceAndAStrongerOneSlowly() {
        var g = average()
        rest(&g, strength: 9.85, seconds: 20)
        rest(&g, strength: 9.80, seconds: 30)
        #expect(abs(g.restingStrength - 9.80) < 0.01, "resting strength \(g.restingStrength)")
        rest(&g, strength: 9.85, seconds: 240)
        #expect(abs(g.restingStrength - 9.85) < 0.01, "resting strength \(g.restingStrength)")
    }
}

/// How much of the board's motion stays in the one-second average, which
/// sets how far the tilt trusts it: a slow sway stays, vibration does not.
@Suite struct GravityAverageMotionTests {
    let gravity = Vector3(0, 0, 9.81)

    /// Feeds `seconds` at `rate` of gravity plus `motion(t)`, earth frame,
    /// level; returns the average and the mean of its residual motion
    /// variance, read each 40 ms, over the last `lastSeconds`.
    func average(rate: Double, seconds: Double, lastSeconds: Double = 8,
                 _ motion: (Double) -> Vector3) -> (average: GravityAverage, meanResidual: Double) {
        var g = GravityAverage(correlationTime: 1, persistenceTime: 5, accelerometerError: 0.1)
        g.start(strength: 9.81, motionVariance: 0.16)
        let dt = 1 / rate, count = Int(seconds * rate), every = Int((0.04 * rate).rounded())
        var sum = 0.0, reads = 0.0
        for i in 1...count {
            g.add(gravity + motion(Double(i) * dt), rotation: .identity, dt: dt)
            if Double(count - i) * dt < lastSeconds, i % every == 0 {
                sum += g.residualMotionVariance
                reads += 1
            }
        }
        return (g, sum / reads)
    }

    /// A machine's vibration, 1 m/s² RMS on each axis at 28–34 Hz.
    func vibration(_ t: Double) -> Vector3 {
        Vector3(sin(2 * .pi * 28 * t), sin(2 * .pi * 31 * t + 1), sin(2 * .pi * 34 * t + 2)) * 2.0.squareRoot()
    }

    /// Averaged over a second, 28–34 Hz keeps a few hundred-thousandths of its
    /// variance. Read through the jerk of a 0.2 s smoothing alone, any
    /// vibration looked like a 1 Hz swing: a twenty-sixth of it (0.11 (m/s²)²
    /// of 3) was counted as staying, and a vibrating board levelled over
    /// tens of seconds. Near the Nyquist rate the quick share is only partly
    /// seen (100 Hz), so the bound there is looser.
    @Test(arguments: [(100.0, 0.05), (400.0, 0.01)])
    func vibrationDoesNotStayInTheAverage(rate: Double, bound: Double) {
        let (g, residual) = average(rate: rate, seconds: 20, vibration)
        #expect(g.motionVariance > 2.5)
        #expect(residual < bound, "\(rate) Hz: \(residual) (m/s²)² of \(g.motionVariance) counted as staying")
    }

    /// A sway of 0.7 m/s² with an 8 s period (a boat's roll felt up its
    /// mast) keeps 1/(1 + ω²τ²) of its variance, 0.15 (m/s²)², in the
    /// average. The average follows such a sway, so the variance about it
    /// is only the ω²τ²/(1 + ω²τ²) it does not follow: divided by 1 + ω²τ²
    /// again, as it was, the sway's share came out at 0.037 (m/s²)² over its
    /// period; now 0.066, the rest lost to reading an 8 s sway's variance
    /// over one second.
    @Test func aSlowSwayStaysInTheAverage() {
        let omega = 2 * Double.pi * 0.125
        let (_, residual) = average(rate: 100, seconds: 40) { t in Vector3(0.7 * sin(omega * t), 0, 0) }
        let expected = 0.245 / (1 + omega * omega)
        #expect(residual > 0.35 * expected, "\(residual) (m/s²)² of the sway's \(expected) counted as staying")
    }
}
