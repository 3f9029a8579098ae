import Foundation
import Testing
@testable import LodestoneCore

/// The window's straight-line fits of gravity and field measure the rotation
/// a slow turn makes; the gyro's rate compared with them must be weighed the
/// way those fits weigh it.
@Suite struct SteadyRotationTests {
    let dt = 0.01
    let degree = Angle.radiansPerDegree

    /// Feeds a level board, noise-free, turning about up at `rate(t)` (rad/s) for `seconds`.
    func window(seconds: Double, rate: (Double) -> Double) throws -> SteadyRotation.Estimate {
        var window = SteadyRotation(averagingTime: 1.5)
        var heading = 0.0
        let gravity = Vector3(0, 0, 9.81), north = Vector3(0, 20, -45)
        for i in 0..<Int((seconds / dt).rounded()) {
            let w = rate(Double(i) * dt)
            heading += w * dt
            // A clockwise turn (heading up) seen from the body: the field turns the other way about z.
            let c = cos(heading), s = sin(heading)
            let field = Vector3(c * north.x - s * north.y, s * north.x + c * north.y, north.z)
            window.add(angularRate: Vector3(0, 0, -w), acceleration: gravity, field: field, dt: dt)
        }
        return try #require(window.estimate)
    }

    /// A steady turn: every reading of the rate agrees.
    @Test func aSteadyTurnReadsTheSameEveryWay() throws {
        let e = try window(seconds: 20) { _ in 0.3 * degree }
        #expect(abs(e.meanRate.z + 0.3 * degree) < 1e-9)
        #expect(abs(e.lineRate.z + 0.3 * degree) < 1e-9)
        #expect(abs(e.verticalRate + 0.3 * degree) < 1e-4 * degree)
    }

    /// A turn speeding up by 0.05 °/s²: the field's fitted drift reads the
    /// rate of about one averaging time before the mean reading's moment, so
    /// the mean gyro less that drift is 0.075 °/s, which the filter took for
    /// gyro bias. The line fitted to the gyro's own angle reads as the field does.
    @Test func aTurnThatSpeedsUpIsReadAsTheFieldsDriftReadsIt() throws {
        let e = try window(seconds: 20) { t in (0.3 + 0.05 * t) * degree }
        // Rates about up: the clockwise turn is negative.
        let mean = -e.meanRate.z / degree, line = -e.lineRate.z / degree, drift = -e.verticalRate / degree
        #expect(abs(mean - drift - 0.075) < 0.005, "mean \(mean) °/s, drift \(drift) °/s")
        #expect(abs(line - drift) < 0.001, "line \(line) °/s, drift \(drift) °/s")
    }
}
