import Foundation
import Testing
@testable import LodestoneCore

/// The gyro's rate error learned from closed loops: a level board turning at a
/// steady rate, read by a compass 25 times a second, and a gyro whose scale is
/// off by `scale` (a fraction).
@Suite struct LoopRateErrorTests {
    static let degree = Angle.radiansPerDegree
    static let partFigure = 0.005 * 0.005
    static let floor = 0.0005 * 0.0005

    static func fresh() -> LoopRateError {
        LoopRateError(variance: partFigure, smallestVariance: floor, correlationAngle: 45 * degree)
    }

    /// Feeds `duration` seconds from `start` of a level turn at `rate` °/s (the
    /// heading `heading(t)` when given instead), with the gyro reading `scale`
    /// too fast. `whiteNoise` is each smoothed reading's, degrees; `biasSinceStill`
    /// how far the bias moved since the board was still, °/s (nil: never still).
    static func feed(_ loops: inout LoopRateError, scale: Double, rate: Double = 20, start: Double = 0,
                     duration: Double, whiteNoise: Double = 0.06, compassError: Double = 1,
                     biasUncertainty: Double = 0.05, biasSinceStill: Double? = 0,
                     heading: ((Double) -> Double)? = nil) {
        let step = 0.04
        for k in 0...Int(duration / step) {
            let t = start + Double(k) * step
            let psi = heading?(t) ?? rate * degree * t
            let gyroTurn = (1 + scale) * psi
            let reading = CompassErrorSpread.Reading(difference: psi - gyroTurn,
                                                     whiteVariance: whiteNoise * degree * whiteNoise * degree,
                                                     attitude: Quaternion(axis: .unitZ, angle: psi), time: t)
            loops.observe(reading, netTurn: gyroTurn, compassVariance: compassError * compassError * degree * degree,
                          persistentVariance: 0, biasVariance: biasUncertainty * degree * biasUncertainty * degree,
                          biasSinceStill: biasSinceStill.map { $0 * degree * $0 * degree })
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

    /// A gyro better than its part's figure: its loops close within their
    /// noise (here mostly the bias's, 0.05 °/s over an 18 s loop, 0.9°), and
    /// the figure falls toward what a loop can resolve, 0.25 %, in five minutes.
    @Test func aGoodGyroIsLearnedToBeBetterThanItsFigure() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0, duration: 300)
        let learned = loops.variance.squareRoot()
        #expect(learned < 0.0025, "learned \(learned)")
    }

    /// A steady turn's 1 % scale error, taken in by the bias (0.2 °/s at
    /// 20 °/s since the board was still): the loops close cleanly, but the
    /// figure is not learned away; it rises toward what the bias took in.
    /// Without a still moment to compare with, clean loops teach nothing.
    @Test func aScaleErrorTheBiasTookInIsNotLearnedAway() {
        var moved = Self.fresh(), neverStill = Self.fresh()
        Self.feed(&moved, scale: 0, duration: 300, biasSinceStill: 0.2)
        Self.feed(&neverStill, scale: 0, duration: 300, biasSinceStill: nil)
        #expect(moved.variance > Self.partFigure, "learned \(moved.variance.squareRoot())")
        #expect(neverStill.variance == Self.partFigure)
    }

    /// The same gyro read by a compass whose noise dwarfs what the figure
    /// would drift: the loops cannot tell, and the figure hardly moves.
    @Test func loopsThatNoiseDominatesTeachLittle() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0, duration: 300, whiteNoise: 5)
        #expect(loops.variance > 0.8 * Self.partFigure, "learned \(loops.variance.squareRoot())")
    }

    /// A 0.2 % error, under the figure: the loops show a drift of 0.7° a
    /// revolution, and the figure comes down to about it, not below.
    @Test func aSmallerErrorIsLearnedAsItIs() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0.002, duration: 600)
        let learned = loops.variance.squareRoot()
        #expect(learned > 0.0012 && learned < 0.0035, "learned \(learned)")
    }

    /// Back and forth through 150° either way: the board comes back to where it
    /// was, but with no whole turn about up, and a scale error cancels there.
    @Test func backAndForthMakesNoLoop() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0.03, duration: 300) { t in 150 * Self.degree * sin(2 * .pi * t / 20) }
        #expect(loops.variance == Self.partFigure)
    }

    /// Once loops close cleanly again (the bias has been measured still, and
    /// the gyro is as good as its part), the figure comes back down.
    @Test func cleanLoopsBringTheFigureBack() {
        var loops = Self.fresh()
        Self.feed(&loops, scale: 0.03, duration: 60)
        let raised = loops.variance
        #expect(raised > 20 * Self.partFigure)
        Self.feed(&loops, scale: 0, start: 60, duration: 300)
        #expect(loops.variance < 0.1 * raised, "still \(loops.variance.squareRoot())")
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
    /// at 6 °/s takes a minute, and a bias known to 0.5 °/s may drift 30° in
    /// it. Such a loop neither raises the figure nor, closing cleanly, lowers it.
    @Test(arguments: [0.03, 0])
    func aDriftTheBiasExplainsTeachesNothing(scale: Double) {
        var unsure = Self.fresh()
        Self.feed(&unsure, scale: scale, rate: 6, duration: 70, biasUncertainty: 0.5)
        #expect(unsure.variance > 0.99 * Self.partFigure && unsure.variance <= Self.partFigure)
        if scale > 0 {
            var sure = Self.fresh()
            Self.feed(&sure, scale: scale, rate: 6, duration: 70, biasUncertainty: 0.05)
            #expect(sure.variance > 20 * Self.partFigure)
        }
    }
}
