import Testing
@testable import LodestoneCore

@Suite struct TemperatureBiasDriftTests {
    static let perKelvin = 0.1 * Angle.radiansPerDegree

    @Test func noTemperatureIsNoWarming() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin)
        let taken = drift.takeWarming()
        #expect(taken.change == 0 && taken.slopeNoise == 0)
        #expect(drift.temperature == nil)
    }

    /// The warming is what the average moved since it was last taken; the
    /// slope's variance grows by its prior over every ``TemperatureBiasDrift/slopeSpan``.
    @Test func theWarmingIsTakenOnce() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(25, dt: 0)
        #expect(drift.takeWarming().change == 0, "the first reading is where the warming starts")
        for _ in 0..<6000 { drift.observe(31, dt: 0.01) } // 60 s: the average has reached 31 °C
        let taken = drift.takeWarming()
        #expect(abs(taken.change - 6) < 1e-4)
        let expected = Self.perKelvin * Self.perKelvin * 6 / TemperatureBiasDrift.slopeSpan
        #expect(abs(taken.slopeNoise - expected) < 1e-4 * expected)
        #expect(drift.takeWarming().change == 0)
    }

    /// A reading's noise or a one-sample glitch is no warming: the average barely moves.
    @Test func aGlitchIsNoWarming() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(25, dt: 0)
        _ = drift.takeWarming()
        drift.observe(85, dt: 0.01)
        for _ in 0..<100 { drift.observe(25, dt: 0.01) }
        #expect(abs(drift.takeWarming().change) < 0.2)
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
    }

    /// A real warming of 0.5 K/s is followed, lagging by the average's time constant.
    @Test func aRealWarmingIsFollowed() {
        var drift = TemperatureBiasDrift(coefficient: Self.perKelvin, smoothingTime: 5)
        drift.observe(20, dt: 0)
        for i in 1...6000 { drift.observe(20 + 0.5 * Double(i) * 0.01, dt: 0.01) }
        // After 60 s the part reads 50 °C; the average lags 0.5 K/s × 5 s.
        #expect(abs((drift.temperature ?? 0) - 47.5) < 0.05)
    }
}
