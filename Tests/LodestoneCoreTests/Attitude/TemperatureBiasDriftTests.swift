import Testing
@testable import LodestoneCore

@Suite struct TemperatureBiasDriftTests {
    static let perKelvin = 0.1 * Angle.radiansPerDegree

    @Test func noTemperatureAsksForNothing() {
        let drift = TemperatureBiasDrift(coefficient: Self.perKelvin)
        #expect(drift.floorVariance(axis: 2) == 0)
        #expect(drift.temperature == nil && drift.learnedAt == nil)
    }

    /// Warming from where the bias was learned loosens it by the coefficient per kelvin.
    @Test func warmingLoosensTheBiasByTheCoefficientPerKelvin() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(25, dt: 0)
        for _ in 0..<6000 { drift.observe(31, dt: 0.01) } // 60 s: the average has reached 31 °C
        let sigma = drift.floorVariance(axis: 0).squareRoot() * Angle.degreesPerRadian
        #expect(abs(sigma - 0.6) < 1e-4, "6 K at 0.1 °/s per kelvin: \(sigma) °/s")
    }

    /// A reading's noise or a one-sample glitch is no warming: the average barely moves.
    @Test func aGlitchIsNoWarming() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(25, dt: 0)
        drift.observe(85, dt: 0.01)
        for _ in 0..<100 { drift.observe(25, dt: 0.01) }
        #expect(drift.floorVariance(axis: 1).squareRoot() * Angle.degreesPerRadian < 0.02)
        drift.observe(.nan, dt: 0.01)
        #expect(drift.temperature?.isFinite == true)
    }

    /// A bad bus read held for a second (as a thermometer read once a second is)
    /// moves the average by at most a second of 1 K/s warming, not by the glitch.
    @Test func aHeldBadReadIsBounded() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(30, dt: 0)
        for _ in 0..<100 { drift.observe(-40, dt: 0.01) }
        #expect(abs((drift.temperature ?? 0) - 30) <= 1.0 + 1e-9)
        #expect(drift.floorVariance(axis: 0).squareRoot() * Angle.degreesPerRadian <= 0.1 + 1e-9)
    }

    /// A real warming of 0.5 K/s is followed, lagging by the average's time constant.
    @Test func aRealWarmingIsFollowed() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(20, dt: 0)
        for i in 1...6000 { drift.observe(20 + 0.5 * Double(i) * 0.01, dt: 0.01) }
        // After 60 s the part reads 50 °C; the average lags 0.5 K/s × 5 s.
        #expect(abs((drift.temperature ?? 0) - 47.5) < 0.05)
    }

    /// What the readings teach about an axis moves the temperature that axis's bias
    /// holds for toward today's; an axis they teach nothing about stays loose.
    @Test func readingsTeachEachAxisAtTodaysTemperature() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 1)
        drift.observe(20, dt: 0)
        for _ in 0..<3000 { drift.observe(30, dt: 0.01) } // 30 s: the average has reached 30 °C
        let before = drift.floorVariance(axis: 0)
        drift.taught(shares: Vector3(0.5, 1, 0))
        #expect(abs((drift.learnedAt?.x ?? 0) - 25) < 1e-3)
        #expect(abs(drift.floorVariance(axis: 0) - before / 4) < before * 1e-3)
        #expect(drift.floorVariance(axis: 1) < 1e-12)
        #expect(drift.floorVariance(axis: 2) == before, "the bias about z was not taught")
    }
}
