import Foundation
import Testing
@testable import LodestoneCore

/// The lever arm learned from a board swinging about a point away from it:
/// the accelerometer reads gravity plus `α × r + ω × (ω × r)`, fed as the
/// fusion feeds it, once per 40 ms correction.
@Suite struct LeverArmEstimateTests {
    static let step = 0.04

    /// Feeds `duration` s of a roll about forward (y) of `amplitude` rad and
    /// `period` s, the board at `arm` from the roll axis, with `noise` m/s² on
    /// the specific force; returns the estimate.
    static func feed(arm: Vector3, amplitude: Double, period: Double, duration: Double,
                     noise: Double = 0.05) -> LeverArmEstimate {
        var estimate = LeverArmEstimate()
        var random = SystemRandomNumberGenerator()
        let g = 9.81, omega = 2 * Double.pi / period
        for k in 0..<Int(duration / step) {
            let t = Double(k) * step
            let roll = amplitude * sin(omega * t)
            let rate = Vector3(0, amplitude * omega * cos(omega * t), 0)
            let alpha = Vector3(0, -amplitude * omega * omega * sin(omega * t), 0)
            // Up in the body frame, rolled about y.
            let up = Vector3(-sin(roll), 0, cos(roll))
            let jitter = Vector3(Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random),
                                 Double.random(in: -1...1, using: &random)) * (noise * 3.0.squareRoot())
            let force = up * g + alpha.cross(arm) + rate.cross(rate.cross(arm)) + jitter
            _ = estimate.observe(rate: rate, specificForce: force, gravity: up * g, interval: step)
        }
        return estimate
    }

    /// A boat's roll, ±20° every 8 s, 4 m up the mast: learned within a minute.
    @Test func aMastsLeverArmIsLearned() {
        let estimate = Self.feed(arm: Vector3(0, 0, 4), amplitude: 20 * Angle.radiansPerDegree, period: 8, duration: 60)
        let arm = try! #require(estimate.leverArm)
        #expect(abs(arm.z - 4) < 0.2, "learned \(arm)")
        #expect(abs(arm.x) < 0.5 && abs(arm.y) < 0.5, "learned \(arm)")
    }

    @Test func noArmIsTakenWhereThereIsNone() {
        let estimate = Self.feed(arm: .zero, amplitude: 20 * Angle.radiansPerDegree, period: 8, duration: 120)
        #expect(estimate.leverArm == nil, "learned \(String(describing: estimate.leverArm))")
    }

    /// A hand's quick swing (1.5 Hz) is not compensated: the correction runs
    /// an interval late, too late for it.
    @Test func aQuickSwingIsLeftAlone() {
        let estimate = Self.feed(arm: Vector3(0, 0, 0.3), amplitude: 20 * Angle.radiansPerDegree, period: 0.67,
                                 duration: 60)
        #expect(estimate.leverArm == nil)
    }
}
