import Foundation
import Testing
@testable import LodestoneCore

/// The compass error a sway only seemed to average away, against the turn that
/// lasts: a board corrected by a compass 25 times a second, its compass error
/// 5°, forgetting it along the path turned as the filter does (45° a new error).
@Suite struct UnaveragedCompassErrorTests {
    static let degree = Angle.radiansPerDegree
    static let compassVariance = 25 * degree * degree
    static let step = 0.04

    /// Feeds `duration` seconds in which the board turns about up at `rate(t)` °/s.
    static func feed(_ rate: (Double) -> Double, duration: Double) -> UnaveragedCompassError {
        var share = UnaveragedCompassError()
        share.start(heading: compassVariance, bias: 1e-4, compass: compassVariance, headingCompass: -compassVariance)
        for k in 0..<Int(duration / step) {
            let turned = rate(Double(k) * step) * degree * step
            // The filter's own bounds: a minute's lifetime, 45° an error, never faster than 2 s.
            let path = min(step / 60 + abs(turned) / (45 * degree), step / 2)
            share.grow(interval: step, turn: Vector3(0, 0, turned), pathForgetting: path, timeForgetting: step / 60,
                       perAngle: 1 / (45 * degree), fastest: step / 2, headingNoise: 1e-7 * step,
                       biasNoise: 1e-8 * step, compassVariance: compassVariance)
            share.measuredHeading(noise: 1e-4)
        }
        return share
    }

    @Test func aStillBoardAddsNothing() {
        #expect(Self.feed({ _ in 0 }, duration: 120).variance < 1e-12)
    }

    @Test func aSteadyTurnAddsNothingOnceItHasLasted() {
        let share = Self.feed({ _ in 10 }, duration: 120)
        #expect(share.variance < 0.01 * Self.compassVariance, "\(share.variance.squareRoot() / Self.degree)°")
    }

    /// A boat's roll, ±20° every 8 s, about up here: the path turns 80° a
    /// period, the board comes back each time. Most of the error stays.
    @Test func aSwayKeepsMostOfTheCompassError() {
        let share = Self.feed({ t in 20 * 2 * Double.pi / 8 * cos(2 * Double.pi * t / 8) }, duration: 120)
        let kept = share.variance / Self.compassVariance
        #expect(kept > 0.3 && kept < 1, "kept \(kept) of the compass error's variance")
    }
}
