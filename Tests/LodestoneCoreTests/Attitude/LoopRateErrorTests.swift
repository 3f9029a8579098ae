import Foundation
import Testing
@testable import LodestoneCore

/// The gyro's rate error learned from closed loops: a level board turning at a
/// steady rate, read by a perfect compass 25 times a second, and a gyro whose
/// scale is off by `scale` (a fraction).
@Suite struct LoopRateErrorTests {
    static let degree = Angle.radiansPerDegree
    static let partFigure = 0.005 * 0.005

    static func fresh() -> LoopRateError {
        LoopRateError(smallestVariance: partFigure, correlationAngle: 45 * degree)
    }

    /// Feeds `duration` seconds from `start` of a turn at `rate` °/s (the heading
    /// `heading(t)` when given instead), with the gyro reading `scale` too fast.
    static func feed(_ loops: inout LoopRateError, scale: Double, rate: Double = 20, start: Double = 0,
                     duration: Double, biasUncertainty: Double = 0.05, heading: ((Double) -> Double)? = nil) {
        let step = 0.04
        for k in 0...Int(duration / step) {
            let t = start + Double(k) * step
            let psi = heading?(t) ?? rate * degree * t
            let gyroTurn = (1 + scale) * psi
            let reading = CompassErrorSpread.Reading(difference: psi - gyroTurn, whiteVariance: 1e-6,
                                                     attitude: Quaternion(axis: .unitZ, angle: psi), time: t)
            loops.observe(reading, netTurn: gyroTurn, compassVariance: 4 * degree * degree, persistentVariance: 0,
                          biasVariance: biasUncertainty * degree * biasUncertainty * degree)
        }
    }

    /// 3 % fast (a cheap part's sensitivity tolerance) drifts 11° a revolution:
    /// learned within three revolutions as a rate error of about 3 %.
    @Test func aScaleErrorIsLearnedFromWholeTurns() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0.03, duration: 3 * 18 + 2)
        let learned = loops.variance.squareRoot()
        #expect(learned > 0.025 && learned < 0.031, "learned \(learned)")
    }

    /// A gyro as good as its figure teaches nothing: loops close, the drift is nil.
    @Test func aGoodGyroKeepsThePartsFigure() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0, duration: 300)
        #expect(loops.variance == Self.partFigure)
    }

    /// Back and forth through 150° either way: the board comes back to where it
    /// was, but with no whole turn about up, and a scale error cancels there.
    @Test func backAndForthMakesNoLoop() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0.03, duration: 300) { t in 150 * Self.degree * sin(2 * .pi * t / 20) }
        #expect(loops.variance == Self.partFigure)
    }

    /// Once loops close cleanly again (the bias has taken in a steady turn's
    /// drift), the figure comes back down to the part's.
    @Test func cleanLoopsBringTheFigureBack() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0.03, duration: 60)
        #expect(loops.variance > 20 * Self.partFigure)
        Self.feed(&loops, scale: 0, start: 60, duration: 300)
        #expect(loops.variance == Self.partFigure)
    }

    /// A disturbed reading breaks every loop that spans it.
    @Test func anInterruptionBreaksTheLoop() {
        var loops = Self.fresh()
        for k in 0..<12 {
            Self.feed(&loops, scale: 0.03, start: Double(k) * 10, duration: 9.9)
            loops.interrupted()
        }
        #expect(loops.variance == Self.partFigure)
    }

    /// A drift the bias's uncertainty explains is no rate error: one revolution
    /// at 6 °/s takes a minute, and a bias known to 0.5 °/s may drift 30° in it.
    @Test func aDriftTheBiasExplainsTeachesNothing() {
        var unsure = Self.fresh(), sure = Self.fresh()
        Self.feed(&unsure, scale: 0.03, rate: 6, duration: 70, biasUncertainty: 0.5)
        Self.feed(&sure, scale: 0.03, rate: 6, duration: 70, biasUncertainty: 0.05)
        #expect(unsure.variance == Self.partFigure)
        #expect(sure.variance > 20 * Self.partFigure)
    }
}
