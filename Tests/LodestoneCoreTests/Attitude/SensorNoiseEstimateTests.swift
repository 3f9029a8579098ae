import Foundation
import LodestoneSimulation
import Testing
@testable import LodestoneCore

@Suite struct SensorNoiseEstimateTests {
    /// A setting of no noise (a quantised sensor that looked silent on the
    /// bench) starts at the floors that learning keeps to: taken as 0, the
    /// first readings' comparisons were 0 / 0 where the board did not turn.
    @Test func aSettingOfNoNoiseStartsAtTheFloors() {
        let silent = SensorNoiseEstimate(magnetometerNoise: 0, gyroNoiseDensity: 0, accelerometerNoise: 0)
        #expect(silent.magnetometerVariance == 1e-4)
        #expect(silent.gyroNoiseIntensity == 1e-12)
        #expect(silent.accelerometerVariance == 1e-8)
        let typical = SensorNoiseEstimate(magnetometerNoise: 0.5, gyroNoiseDensity: 1e-4, accelerometerNoise: 0.05)
        #expect(typical.magnetometerVariance == 0.25, "figures above the floors are kept")
        #expect(abs(typical.gyroNoiseIntensity - 1e-8) < 1e-20 && abs(typical.accelerometerVariance - 0.0025) < 1e-15)
    }

    /// So does a fusion set up with such a setting, before any rest has taught it the real figure.
    @Test func aFusionSetUpWithoutMagnetometerNoiseUsesTheFloor() {
        var settings = AttitudeFusion.Settings()
        settings.magnetometerNoise = 0
        #expect(AttitudeFusion(settings: settings).noise.magnetometerVariance == 1e-4)
    }

    /// The magnetometer's noise is learned from successive readings in the
    /// earth frame, at rest or not: 5 µT on each axis, ten times the setting,
    /// at 100 Hz, is found within a few percent in half a minute; a gap in the
    /// readings is no difference of noises.
    @Test func theMagnetometersNoiseIsLearnedFromItsReadings() {
        var estimate = SensorNoiseEstimate(magnetometerNoise: 0.5, gyroNoiseDensity: 1e-4, accelerometerNoise: 0.05)
        var random = RandomSource(seed: 3)
        let earth = Vector3(0, 21, -45)
        for k in 0..<3000 {
            let (x, y, z) = random.gaussianVector(sigma: 5)
            // After a gap of two seconds, the field has moved: not a sample.
            let time = Double(k) * 0.01 + (k >= 1500 ? 2 : 0)
            estimate.observeField(inEarth: earth + Vector3(x, y, z) + (k >= 1500 ? Vector3(30, 0, 0) : .zero), time: time)
        }
        let learned = estimate.movingMagnetometerVariance.squareRoot()
        #expect(abs(learned - 5) < 0.3, "learned \(learned) µT, 5 true")
        #expect(estimate.magnetometerVariance == estimate.movingMagnetometerVariance, "the larger figure is used")
    }

    /// A steady field is no noise: the floor, not 0; the filter keeps the
    /// larger figure, here the setting's, until a rest shows less.
    @Test func aSteadyFieldLearnsTheFloor() {
        var estimate = SensorNoiseEstimate(magnetometerNoise: 0.5, gyroNoiseDensity: 1e-4, accelerometerNoise: 0.05)
        for k in 0..<10_000 { estimate.observeField(inEarth: Vector3(0, 21, -45), time: Double(k) * 0.01) }
        // 100 s against a learning time of 10 s: e⁻¹⁰ of the setting's 0.25 µT² is left.
        #expect(abs(estimate.movingMagnetometerVariance - 1e-4) < 2e-5)
        #expect(estimate.magnetometerVariance == 0.25)
    }

    /// A correction the filter applies between two readings turns its earth
    /// frame, and the readings with it: turned out, it is no noise.
    @Test func aCorrectionBetweenReadingsIsNoNoise() {
        var estimate = SensorNoiseEstimate(magnetometerNoise: 0.5, gyroNoiseDensity: 1e-4, accelerometerNoise: 0.05)
        let field = Vector3(0, 21, -45)
        for k in 0..<10_000 {
            // Each correction turns the estimated attitude by 2° about up; the field reads turned alike.
            let turn = Quaternion(axis: .unitZ, angle: 2 * Angle.radiansPerDegree)
            estimate.observeField(inEarth: Quaternion(axis: .unitZ, angle: Double(k) * 2 * Angle.radiansPerDegree).rotate(field),
                                  time: Double(k) * 0.04)
            estimate.fieldCorrected(by: turn)
        }
        #expect(estimate.movingMagnetometerVariance < 1e-3, "learned \(estimate.movingMagnetometerVariance) µT² from corrections alone")
    }

    /// A magnetometer that reports the field as it was `magnetometerLatency`
    /// ago (10 ms, as BROAD's does), on a board swung by hand at up to 170 °/s:
    /// its readings trail the attitude by ω × latency, which the filter already
    /// adds to each reading's noise. Compared raw, the differences of fused
    /// readings counted that lag a second time, as noise, wherever the rate
    /// changed between them.
    @Test func aMagnetometersDelayIsNotLearnedAsNoise() {
        let latency = 0.01, rate = 100.0, noise = 0.1
        var settings = AttitudeFusion.Settings()
        settings.magnetometerLatency = latency
        var fusion = AttitudeFusion(settings: settings)
        func swing(_ t: Double) -> Vector3 {
            Vector3(sin(2 * .pi * 1.3 * t), sin(2 * .pi * 0.9 * t + 1), sin(2 * .pi * 1.7 * t + 2)) * 3
        }
        // The board moved on a 1 ms grid, so that the field can be read 10 ms late.
        var board = MotionSimulation(seed: 5)
        board.magNoise = noise
        let step = 0.001, perSample = Int((1 / rate / step).rounded()), lag = Int((latency / step).rounded())
        var readings: [MotionSimulation.Reading] = []
        for k in 0..<60_000 {
            readings.append(board.step(rate: swing(Double(k) * step), dt: step))
            guard k >= lag, k % perSample == 0 else { continue }
            let now = readings[k]
            fusion.update(acceleration: now.acceleration, magneticField: readings[k - lag].magneticField,
                          angularRate: now.angularRate, dt: 1 / rate)
        }
        let learned = fusion.noise.movingMagnetometerVariance.squareRoot()
        #expect(learned < 1.5 * noise, "learned \(learned) µT for a magnetometer of \(noise) µT")
    }
}
