import Foundation
import Testing
@testable import LodestoneCore

/// The accelerometer's offset learned from a board turned over, fed as the
/// fusion feeds it: once per 40 ms correction, with the interval's mean
/// specific force and the gyro's turn.
@Suite struct AccelerometerBiasEstimateTests {
    static let step = 0.04
    static let gravity = Vector3(0, 0, 9.81)

    /// Feeds `duration` s of a board whose attitude (body → earth) is
    /// `attitude(t)`, reading gravity plus `offset` plus `acceleration(t)`
    /// (earth frame) and `noise` m/s² of white noise.
    static func feed(_ estimate: inout AccelerometerBiasEstimate, from start: Double = 0, duration: Double,
                     offset: Vector3, noise: Double = 0.02, attitude: (Double) -> Quaternion,
                     acceleration: (Double) -> Vector3 = { _ in .zero }) {
        var random = SystemRandomNumberGenerator()
        func gaussian() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        var t = start
        while t < start + duration - 1e-9 {
            let q0 = attitude(t), q1 = attitude(t + step)
            let turn = (q0.conjugate * q1).rotationVector
            let mid = attitude(t + step / 2)
            let force = mid.conjugate.rotate(gravity + acceleration(t + step / 2)) + offset
                + Vector3(gaussian(), gaussian(), gaussian()) * (noise / 5)   // a 40 ms mean of 25 readings
            estimate.observe(specificForce: force, turn: turn, gyroBias: .zero, gyroBiasVariance: 1e-9,
                             rate: turn * (1 / step), interval: step, rateErrorVariance: 2.5e-5)
            t += step
        }
    }

    /// A board turned over slowly about an axis that itself turns: every attitude in a few minutes.
    static func tumbling(_ t: Double) -> Quaternion {
        Quaternion(axis: Vector3(0, 0, 1), angle: 0.11 * t) * Quaternion(axis: Vector3(1, 0, 0), angle: 0.23 * t)
    }

    @Test func anOffsetIsLearnedOnceTheBoardIsTurnedOver() {
        let offset = Vector3(0.3, -0.2, 0.4)
        var estimate = AccelerometerBiasEstimate()
        let attitude = { (t: Double) in t < 20 ? Quaternion.identity : Self.tumbling(t - 20) }
        Self.feed(&estimate, duration: 20, offset: offset, attitude: attitude)
        #expect(estimate.bias == .zero, "at one attitude nothing tells an offset from a tilt: \(estimate.bias)")
        Self.feed(&estimate, from: 20, duration: 240, offset: offset, attitude: attitude)
        #expect((estimate.bias - offset).length < 0.03, "taken out \(estimate.bias), estimate \(estimate.estimate)")
    }

    @Test func noOffsetIsTakenOutWhereThereIsNone() {
        var estimate = AccelerometerBiasEstimate()
        Self.feed(&estimate, duration: 300, offset: .zero, attitude: Self.tumbling)
        #expect(estimate.bias == .zero, "taken out \(estimate.bias), estimate \(estimate.estimate)")
        #expect(estimate.estimate.length < 0.05, "estimate \(estimate.estimate)")
    }

    /// A car turns about up only: the offset across up looks like a tilt
    /// that turns with it, and its own acceleration in a curve does too.
    @Test func turningAboutUpOnlyTakesNothingOut() {
        var estimate = AccelerometerBiasEstimate()
        Self.feed(&estimate, duration: 300, offset: Vector3(0.3, -0.2, 0.4),
                  attitude: { Quaternion(axis: Vector3(0, 0, 1), angle: 0.2 * $0) })
        #expect(estimate.bias == .zero, "taken out \(estimate.bias), estimate \(estimate.estimate)")
    }

    /// A boat rolling ±20° every 8 s, its sensor 4 m up the mast: the
    /// acceleration of the roll is in step with the attitude, as an offset's
    /// share is, and no offset is taken out although the estimate is fooled.
    @Test func aRollFeltUpAMastIsNoOffset() {
        let period = 8.0, amplitude = 20 * Angle.radiansPerDegree, arm = 4.0
        let w = 2 * Double.pi / period
        func roll(_ t: Double) -> Double { amplitude * sin(w * t) }
        var estimate = AccelerometerBiasEstimate()
        Self.feed(&estimate, duration: 600, offset: .zero,
                  attitude: { Quaternion(axis: Vector3(0, 0, 1), angle: 0.005 * $0) * Quaternion(axis: Vector3(0, 1, 0), angle: roll($0)) },
                  acceleration: { t in
                      // The mast's top swings on a circle of radius `arm` about the roll axis.
                      let angle = roll(t), rate = amplitude * w * cos(w * t), acceleration = -amplitude * w * w * sin(w * t)
                      let tangential = Vector3(cos(angle), 0, -sin(angle)) * (acceleration * arm)
                      let centripetal = Vector3(sin(angle), 0, cos(angle)) * (-rate * rate * arm)
                      return Quaternion(axis: Vector3(0, 0, 1), angle: 0.005 * t).rotate(tangential + centripetal)
                  })
        #expect(estimate.bias == .zero, "taken out \(estimate.bias), estimate \(estimate.estimate)")
    }

    /// An offset that changes (a knock, a part recalibrated, a warming) is
    /// followed: the learned one is not held for good.
    @Test func anOffsetThatChangesIsFollowed() {
        var estimate = AccelerometerBiasEstimate()
        Self.feed(&estimate, duration: 240, offset: Vector3(0.3, -0.2, 0.4), attitude: Self.tumbling)
        let before = estimate.bias
        Self.feed(&estimate, from: 240, duration: 240, offset: Vector3(-0.2, 0.1, 0.1), attitude: Self.tumbling)
        #expect((before - Vector3(0.3, -0.2, 0.4)).length < 0.03, "before \(before)")
        #expect((estimate.bias - Vector3(-0.2, 0.1, 0.1)).length < 0.05, "after \(estimate.bias), estimate \(estimate.estimate)")
    }

    /// A turn the gyro did not see (a clipped gyro, samples lost) leaves
    /// gravity elsewhere in the frame: the frame starts again, and the
    /// offset is learned on (here it changed as well).
    @Test func aTurnTheGyroDidNotSeeDoesNotStopTheLearning() {
        let offset = Vector3(0.3, -0.2, 0.4)
        var estimate = AccelerometerBiasEstimate()
        Self.feed(&estimate, duration: 240, offset: offset, attitude: Self.tumbling)
        let unseen = Quaternion(axis: Vector3(1, 1, 0).normalized, angle: 1)
        let changed = Vector3(-0.2, 0.1, 0.1)
        Self.feed(&estimate, from: 240, duration: 300, offset: changed, attitude: { Self.tumbling($0) * unseen })
        #expect((estimate.bias - changed).length < 0.05, "taken out \(estimate.bias), estimate \(estimate.estimate)")
    }

    /// Counting the eigenvalues below a level by the leading minors' signs
    /// agrees with the eigen-decomposition.
    @Test func eigenvaluesBelowALevelAreCountedRight() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var sum = Matrix3(diagonal: .zero)
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let u = Vector3(Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random),
                                Double.random(in: -1...1, using: &random)).normalized
                sum = sum + Matrix3(rows: u * u.x, u * u.y, u * u.z)
            }
            let level = Double.random(in: 0.01...0.6, using: &random)
            let values = SymmetricEigen3(sum).values
            let expected = values.filter { $0 < level }.count
            guard values.allSatisfy({ abs($0 - level) > 1e-9 }) else { continue }
            #expect(AccelerometerBiasEstimate.eigenvalues(of: sum, below: level) == expected, "\(values) below \(level)")
        }
    }
}
