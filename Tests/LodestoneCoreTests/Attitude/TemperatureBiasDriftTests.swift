import Testing
@testable import LodestoneCore

@Suite struct TemperatureBiasDriftTests {
    static let perKelvin = 0.1 * Angle.radiansPerDegree

    @Test func noTemperatureAsksForNothing() {
        let drift = TemperatureBiasDrift(coefficient: Self.perKelvin)
        #expect(drift.floorVariance == 0)
        #expect(drift.temperature == nil && drift.learnedAt == nil)
    }

    /// Warming from where the bias was learned loosens it by the coefficient per kelvin.
    @Test func warmingLoosensTheBiasByTheCoefficientPerKelvin() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(25, dt: 0)
        for _ in 0..<6000 { drift.observe(31, dt: 0.01) } // 60 s: the average has reached 31 °C
        let sigma = drift.floorVariance.squareRoot() * Angle.degreesPerRadian
        #expect(abs(sigma - 0.6) < 1e-4, "6 K at 0.1 °/s per kelvin: \(sigma) °/s")
    }

    /// A reading's noise or a one-sample glitch is no warming: the average barely moves.
    @Test func aGlitchIsNoWarming() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(25, dt: 0)
        drift.observe(85, dt: 0.01)
        for _ in 0..<100 { drift.observe(25, dt: 0.01) }
        #expect(drift.floorVariance.squareRoot() * Angle.degreesPerRadian < 0.02)
        drift.observe(.nan, dt: 0.01)
        #expect(drift.temperature?.isFinite == true)
    }

    /// What the readings teach moves the temperature the bias holds for toward today's.
    @Test func readingsTeachTheBiasAtTodaysTemperature() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 1)
        drift.observe(20, dt: 0)
        for _ in 0..<1000 { drift.observe(30, dt: 0.01) }
        let before = drift.floorVariance
        drift.taught(share: 0.5)
        #expect(abs((drift.learnedAt ?? 0) - 25) < 1e-3)
        #expect(abs(drift.floorVariance - before / 4) < before * 1e-3)
        drift.taught(share: 1)
        #expect(drift.floorVariance < 1e-12)
    }
}
