import Foundation
import LodestoneSimulation
import Testing
@testable import LodestoneCore

/// Hours of motion with a known truth: the gyro bias must stay learned, the
/// heading right, and the heading uncertainty honest for as long as the
/// daemon runs. Simulated at 20 Hz so that a debug build gets through hours
/// in seconds; the gyro noise matches the filter's noise density at that rate.
///
/// Before the attitude and bias errors were one filter, a large sway (the
/// first test) made the bias estimate grow ×3 per 1000 s to 4 °/s and the
/// heading drift 30° while claiming 2°; a fast spin left a 2 °/s bias error.
@Suite struct AttitudeFusionLongRunTests {
    static let rate = 20.0
    static let dt = 1 / rate
    /// Per-sample gyro noise for the default noise density, rad/s.
    static let gyroNoise = AttitudeFusion.Settings().gyroNoiseDensity * Angle.radiansPerDegree * rate.squareRoot()
    /// A bias the filter must learn: 0.5 °/s, not along any body axis.
    static let bias = Vector3(0.6, -0.48, 0.64) * (0.5 * Angle.radiansPerDegree)

    struct Outcome: CustomStringConvertible {
        var worstBiasError = 0.0     // °/s, after settling
        var worstHeadingError = 0.0  // degrees, after settling
        var worstUncertainty = 0.0   // degrees, after settling
        var within = 0, count = 0    // samples with the error inside ±headingUncertainty
        var coverage: Double { Double(within) / Double(max(count, 1)) }
        var description: String {
            "bias error ≤ \(worstBiasError) °/s, heading error ≤ \(worstHeadingError)°, "
                + "uncertainty ≤ \(worstUncertainty)°, within ±uncertainty \(coverage)"
        }

        mutating func score(_ fusion: AttitudeFusion, truth: Quaternion, bias: Vector3) {
            let error = headingError(fusion.attitude, truth)
            worstBiasError = max(worstBiasError, (fusion.gyroBias - bias).length * Angle.degreesPerRadian)
            worstHeadingError = max(worstHeadingError, error)
            worstUncertainty = max(worstUncertainty, fusion.headingUncertainty)
            if error <= fusion.headingUncertainty { within += 1 }
            count += 1
        }
    }

    /// Runs `seconds` of motion whose body rate `rate(t, truth)` is constant
    /// over each sample; scores everything after `settle` seconds.
    static func run(seconds: Double, settle: Double, bias: Vector3, start: Quaternion = .identity,
                    rate: (Double, Quaternion) -> Vector3) -> Outcome {
        var sim = MotionSimulation(truth: start, seed: 9)
        sim.gyroBias = bias
        sim.gyroNoise = gyroNoise
        var fusion = AttitudeFusion()
        var outcome = Outcome()
        for i in 0..<Int(seconds * Self.rate) {
            let t = Double(i) * dt
            let r = sim.step(rate: rate(t, sim.truth), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            if t >= settle { outcome.score(fusion, truth: sim.truth, bias: bias) }
        }
        return outcome
    }

    static func expectHealthy(_ o: Outcome, bias: Double = 0.1, heading: Double = 2) {
        #expect(o.worstBiasError < bias, "\(o)")
        #expect(o.worstHeadingError < heading, "\(o)")
        #expect(o.worstUncertainty < 5, "\(o)")
        #expect(o.coverage > 2.0 / 3, "\(o)")
    }

    /// The reported case: heading ±120°, pitch and roll ±60°, 10 s period, for
    /// two hours. The earth-frame average of the accelerometer remembers the
    /// last second, so its tilt shows the bias error too; fused as a plain
    /// tilt this fed the bias error back into the bias.
    @Test(arguments: [0, 1.0])
    func largeSwayForHours(biasScale: Double) {
        let sway = MotionProfile.Segment.sway(center: BoardAttitude(heading: 100, pitch: 10),
                                              amplitude: BoardAttitude(heading: 120, pitch: 60, roll: 60),
                                              period: 10, duration: 7_300)
        let bias = Self.bias * biasScale
        let o = Self.run(seconds: 7_200, settle: 300, bias: bias, start: sway.attitude(at: 0)) { t, truth in
            (truth.conjugate * sway.attitude(at: t + Self.dt)).rotationVector / Self.dt
        }
        Self.expectHealthy(o)
    }

    /// 180 °/s about an axis 30° from vertical for an hour. Only the bias along
    /// the spin axis shows directly; the rest turns with the board. At that
    /// rate the magnetometer's latency (10 ms assumed) leaves each compass
    /// reading some 5° uncertain, and the bias across the spin axis turns with
    /// the board and averages out, so it is learned less closely than at rest.
    @Test func fastSpinAboutTiltedAxis() {
        let axis = Vector3(0.5, 0, 0.866)
        let o = Self.run(seconds: 3_600, settle: 1_200, bias: Self.bias,
                         start: Quaternion(axis: Vector3(1, 0.3, 0), angle: 0.4)) { _, truth in
            truth.conjugate.rotate(axis) * Double.pi
        }
        Self.expectHealthy(o, bias: 0.25)
    }

    /// Random tumbling: a body rate of about 1.5 rad/s per axis that changes
    /// over a second, for two hours.
    @Test func randomTumbling() {
        var random = RandomSource(seed: 21)
        var omega = Vector3.zero
        let a = Self.dt / 1.0
        let o = Self.run(seconds: 7_200, settle: 300, bias: Self.bias) { _, _ in
            omega = omega * (1 - a)
                + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * (1.5 * (2 * a).squareRoot())
            return omega
        }
        Self.expectHealthy(o)
    }

    /// Six hours still: the bias is measured, the heading held. A board that
    /// never turns cannot learn its compass's own error, so the compass pulls
    /// the heading only slowly and it wanders with the readings' noise (about
    /// 2.4° each here), within the uncertainty it reports.
    @Test func longRest() {
        let o = Self.run(seconds: 21_600, settle: 60, bias: Self.bias,
                         start: Quaternion(axis: Vector3(0.2, -0.3, 1), angle: 2)) { _, _ in .zero }
        Self.expectHealthy(o, bias: 0.05, heading: 1.5)
    }
}
