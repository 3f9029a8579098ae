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
