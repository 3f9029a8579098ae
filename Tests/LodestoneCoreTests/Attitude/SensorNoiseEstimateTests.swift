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
}
