import Foundation
import Testing
@testable import LodestoneCore
import LodestoneSimulation

/// The compass's deviation learned against the gyro: a level board turning at
/// 2 °/s, read 25 times a second by a compass whose deviation is known, and a
/// gyro with a bias the learner must tell from it.
@Suite struct CompassDeviationTests {
    static let degree = Angle.radiansPerDegree
    static let up = Vector3(0, 0, 1)

    static func fresh() -> CompassDeviation {
        CompassDeviation(levelTolerance: 10 * degree, averagingTime: 2, averagingTurn: 10 * degree, lifetime: 3600)
    }

    /// B sin ψ + C cos ψ + D sin 2ψ + E cos 2ψ, radians.
    static func deviation(_ psi: Double) -> Double {
        let first: Double = 1.5 * sin(psi) - 2.0 * cos(psi)
        let second: Double = 0.3 * sin(2 * psi) + 0.2 * cos(2 * psi)
        return (first + second) * degree
    }

    /// Feeds a turn at `rate` °/s from `start` until `duration` s; the gyro drifts at `bias` °/s
    /// and reads `1 + scale` times the turn; `added` ° sin ψ joins the deviation; the
    /// compass's noise is drawn from `seed`, so a failing draw replays.
    static func feed(_ table: inout CompassDeviation, rate: Double, duration: Double, from start: Double = 0,
                     bias: Double = 0.3, scale: Double = 0, bodyUp: Vector3 = up, noise: Double = 0.5,
                     added: Double = 0, seed: UInt64 = 1) {
        var random = RandomSource(seed: seed)
        let step = 0.04
        var previous = rate * degree * start
        for k in Int(start / step)...Int(duration / step) {
            let t = Double(k) * step
            let psi = rate * degree * t
            table.grew(turn: (psi - previous) * (1 + scale), heading: 1e-9)
            previous = psi
            let gyroHeading = psi * (1 + scale) + bias * degree * t
            let compass = psi + deviation(psi) + added * degree * sin(psi)
            let reading = compass + Double.random(in: -1...1, using: &random) * noise * degree * 1.7
            table.observe(difference: reading - gyroHeading, ownVariance: noise * degree * noise * degree,
                          sharedVariance: 0, heading: (sin(psi), cos(psi)), bodyUp: bodyUp, time: t,
                          prior: 4 * degree * degree, driftPrior: 1 * degree * degree, scalePrior: 0.005 * 0.005)
        }
    }

    @Test func twoTurnsLearnTheDeviation() throws {
        var table = Self.fresh()
        Self.feed(&table, rate: 2, duration: 360)
        #expect(table.isTrusted)
        for psi in stride(from: 0.0, to: 360, by: 15) {
            let p = psi * Self.degree
            let learned = try #require(table.deviation(heading: (sin(p), cos(p)), bodyUp: Self.up))
            #expect(abs(learned - Self.deviation(p)) < 0.25 * Self.degree,
                    "at \(psi)°: learned \(learned / Self.degree)°, the deviation \(Self.deviation(p) / Self.degree)°")
        }
    }

    /// A steady turn drifts the gyro heading by its bias and by its scale
    /// error times the rate alike, and cannot tell them apart: the table
    /// splits the drift by their priors. The still board's reading of the
    /// bias before the turn leaves the rest to the scale. The scale error is
    /// twice its prior's deviation, so over the first turn the harmonics take
    /// part of it and a block can surprise the table: in a hundred draws of
    /// the noise, none may start it again and lose the still reading.
    @Test func aStillReadingTellsTheScaleFromTheDrift() throws {
        let bias = 0.3, scale = 0.01
        var steadyOnly = Self.fresh()
        Self.feed(&steadyOnly, rate: 20, duration: 300, bias: bias, scale: scale)
        let split = try #require(steadyOnly.scaleAboutUp(bodyUp: Self.up)).scale
        #expect(abs(split + scale) > 0.003, "a steady turn alone split its drift to \(split)")
        for seed in UInt64(0)..<100 {
            var afterStill = Self.fresh()
            // The first reading starts the table; it is then told the bias, as a rest window would.
            Self.feed(&afterStill, rate: 20, duration: 0, bias: bias, scale: scale, seed: seed)
            afterStill.observeStill(rate: bias * Self.degree, variance: pow(0.005 * Self.degree, 2), bodyUp: Self.up)
            Self.feed(&afterStill, rate: 20, duration: 300, from: 0.04, bias: bias, scale: scale, seed: seed + 1000)
            let learned = try #require(afterStill.scaleAboutUp(bodyUp: Self.up)).scale
            #expect(abs(learned + scale) < 0.001, "noise \(seed): learned \(learned), the gyro reads \(scale) too far")
            #expect(afterStill.scaleAboutUp(bodyUp: Vector3(0, 1, 0)) == nil, "not while the board is on its side")
        }
    }

    /// A magnet mounted beside the compass changes its deviation: the
    /// readings keep surprising the table, which starts again and learns
    /// the new one rather than bending the old one towards it.
    @Test func aNewDeviationStartsTheTableAgain() throws {
        var table = Self.fresh()
        Self.feed(&table, rate: 2, duration: 360)
        #expect(table.isTrusted)
        Self.feed(&table, rate: 2, duration: 400, from: 360.04, added: 6)
        #expect(!table.isTrusted, "the old table still trusted after the deviation changed by 6°")
        Self.feed(&table, rate: 2, duration: 760, from: 400.04, added: 6)
        #expect(table.isTrusted)
        for psi in stride(from: 0.0, to: 360, by: 15) {
            let p = psi * Self.degree, expected = Self.deviation(p) + 6 * Self.degree * sin(p)
            let learned = try #require(table.deviation(heading: (sin(p), cos(p)), bodyUp: Self.up))
            #expect(abs(learned - expected) < 0.25 * Self.degree,
                    "at \(psi)°: learned \(learned / Self.degree)°, the deviation \(expected / Self.degree)°")
        }
    }

    /// A quarter of a turn cannot tell the deviation from the gyro's drift:
    /// what is applied stays a shrunk guess, not a confident one.
    @Test func aQuarterTurnIsNotTrusted() {
        var table = Self.fresh()
        Self.feed(&table, rate: 0.3, duration: 300)
        #expect(!table.isTrusted)
    }

    /// Over less than a turn a drift of the gyro heading that is not steady
    /// can pass for a deviation: the table waits until every heading was seen.
    @Test func aTableWaitsForEveryHeading() {
        var table = Self.fresh()
        Self.feed(&table, rate: 2, duration: 170, noise: 0.1)
        #expect(!table.isTrusted, "trusted after 340° of turn")
        Self.feed(&table, rate: 2, duration: 360, from: 170.04, noise: 0.1)
        #expect(table.isTrusted)
    }

    /// A compass without deviation, and a gyro whose bias ramps by 0.8 °/s as
    /// the part warms 10 K over a minute: the gyro heading's quadratic drift
    /// is the temperature slope's, not a deviation's, given the temperature.
    @Test func aWarmingGyroIsNotADeviation() throws {
        var table = CompassDeviation(levelTolerance: 10 * Self.degree, averagingTime: 2, averagingTurn: 10 * Self.degree,
                                     lifetime: 3600, temperatureCoefficient: 0.1 * Self.degree)
        let step = 0.04, rate = 2 * Self.degree, slope = 0.08 * Self.degree
        var gyroHeading = 0.0
        for k in 0...Int(400 / step) {
            let t = Double(k) * step, psi = rate * t
            let temperature = 25 + 10 * (1 - exp(-t / 60))
            table.grew(turn: rate * step, heading: 1e-9, interval: step, temperature: temperature)
            gyroHeading += (rate + slope * (temperature - 25)) * step
            table.observe(difference: psi - gyroHeading, ownVariance: 0.25 * Self.degree * Self.degree,
                          sharedVariance: 0, heading: (sin(psi), cos(psi)), bodyUp: Self.up, time: t,
                          prior: 4 * Self.degree * Self.degree, driftPrior: 1 * Self.degree * Self.degree,
                          scalePrior: 0.005 * 0.005)
        }
        for psi in stride(from: 0.0, to: 360, by: 30) {
            let p = psi * Self.degree
            let learned = table.deviation(heading: (sin(p), cos(p)), bodyUp: Self.up) ?? 0
            #expect(abs(learned) < 0.2 * Self.degree, "at \(psi)°: a deviation of \(learned / Self.degree)°")
        }
    }

    /// A table holds for the up it was learned at: a board tipped on its side
    /// reads it no more.
    @Test func aTableHoldsForItsUpOnly() {
        var table = Self.fresh()
        Self.feed(&table, rate: 2, duration: 360)
        let side = Vector3(1, 0, 0)
        #expect(table.deviation(heading: (0, 1), bodyUp: side) == nil)
        #expect(table.deviation(heading: (0, 1), bodyUp: Self.up) != nil)
    }
}
