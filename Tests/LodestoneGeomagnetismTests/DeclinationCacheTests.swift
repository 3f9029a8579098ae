import Testing
import LodestoneCore
import LodestoneGeomagnetism

@Suite struct DeclinationCacheTests {
    // 2026-07-01T00:00:00Z, from Python's datetime.
    let midYear = 1_782_864_000.0

    @Test func reEvaluatesOnlyAfterAnHourOrAKilometre() throws {
        var cache = DeclinationCache()
        let d0 = try cache.declination(latitude: 52.512, longitude: 13.327, height: 0, unixTime: midYear)
        #expect(cache.evaluations == 1)
        _ = try cache.declination(latitude: 52.512, longitude: 13.327, height: 0, unixTime: midYear + 3599)
        _ = try cache.declination(latitude: 52.5165, longitude: 13.327, height: 0, unixTime: midYear + 10) // ~500 m north
        #expect(cache.evaluations == 1)
        _ = try cache.declination(latitude: 52.512, longitude: 13.327, height: 0, unixTime: midYear + 3601)
        #expect(cache.evaluations == 2)
        _ = try cache.declination(latitude: 52.53, longitude: 13.327, height: 0, unixTime: midYear + 3601) // ~2 km
        #expect(cache.evaluations == 3)
        // The cached value is the model's value at the first point.
        let direct = try GeomagneticModel.wmm2025.elements(latitude: 52.512, longitude: 13.327, height: 0,
                                                          decimalYear: DecimalYear.from(unixTime: midYear))
        #expect(d0.degrees == direct.declination)
        #expect(d0.uncertainty == direct.declinationUncertainty)
        #expect(d0.isReliable)
    }

    @Test func blackoutMakesTrueHeadingUnreliable() throws {
        var cache = DeclinationCache()
        // Near the north magnetic pole in 2026 (H ≈ 774 nT by WMM2025).
        let d = try cache.declination(latitude: 86.5, longitude: -160, height: 0, unixTime: midYear)
        #expect(!d.isReliable)
        #expect(d.trueHeading(fromMagnetic: 10) == nil)
    }

    @Test func outOfEpochThrowsUnlessAllowed() throws {
        var strict = DeclinationCache()
        #expect(throws: GeomagneticError.self) {
            _ = try strict.declination(latitude: 0, longitude: 0, height: 0, unixTime: 1_956_528_000) // 2032-01-01
        }
        var lenient = DeclinationCache(allowExtrapolation: true)
        _ = try lenient.declination(latitude: 0, longitude: 0, height: 0, unixTime: 1_956_528_000)
        #expect(lenient.elements?.isExtrapolated == true)
    }

    @Test func decimalYearRoundTrip() {
        for y in [2025.0, 2026.5, 2028.999, 2030.0] {
            #expect(abs(DecimalYear.from(unixTime: DecimalYear.unixTime(fromDecimalYear: y)) - y) < 1e-9)
        }
        #expect(DecimalYear.unixTime(fromDecimalYear: 2026.0) == 1_767_225_600) // 2026-01-01T00:00:00Z
    }
}
