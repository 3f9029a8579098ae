import Testing
@testable import LodestoneGeomagnetism

/// Blackout/caution zones near the magnetic poles, declination uncertainty
/// and the true-heading reliability helper, at real places. The expected H
/// values are facts from NOAA's `wmm-calculator` 1.4.4 / `wmmhr` 1.2.4 (2026.0,
/// 0 km); the uncertainties from PyPI `pygeomag` 1.1.0 `calculate_uncertainty`.
@Suite struct ZoneAndUncertaintyTests {
    struct Place: Sendable, CustomTestStringConvertible {
        var latitude, longitude, noaaH: Double
        var zone: MagneticPoleZone
        var testDescription: String { "(\(latitude), \(longitude)) \(zone)" }
    }

    static let wmmPlaces = [
        // Near the 2026 north dip pole in the Arctic Ocean: H = 18.740 nT.
        Place(latitude: 85.5, longitude: 135, noaaH: 18.740, zone: .blackout),
        // Off Adélie Land, near the south dip pole: H = 314.849 nT.
        Place(latitude: -64, longitude: 136, noaaH: 314.849, zone: .blackout),
        // Severnaya Zemlya / Taymyr: H = 1806.957 nT.
        Place(latitude: 80, longitude: 100, noaaH: 1806.957, zone: .blackout),
        // Taymyr Peninsula: H = 3015.892 nT.
        Place(latitude: 76, longitude: 100, noaaH: 3015.892, zone: .caution),
        // Canadian Arctic: H = 2307.030 nT.
        Place(latitude: 80, longitude: -120, noaaH: 2307.030, zone: .caution),
        // Boulder, Colorado: H = 20770.288 nT.
        Place(latitude: 40, longitude: -105, noaaH: 20770.288, zone: .normal),
    ]

    @Test(arguments: wmmPlaces)
    func zonesAtRealPlaces(_ place: Place) throws {
        let e = try GeomagneticModel.wmm2025.elements(latitude: place.latitude, longitude: place.longitude,
                                                      height: 0, decimalYear: 2026.0)
        #expect(abs(e.horizontalIntensity - place.noaaH) < 0.001)
        #expect(e.zone == place.zone)
        #expect(e.isTrueHeadingReliable == (place.zone != .blackout))
        let field = try GeomagneticField(latitude: place.latitude, longitude: place.longitude, altitude: 0,
                                         unixTime: 1_767_225_600)  // 2026-01-01T00:00Z
        #expect(field.isTrueHeadingReliable == (place.zone != .blackout))
    }

    @Test func zoneLimits() {
        #expect(MagneticPoleZone(horizontalIntensity: 0) == .blackout)
        #expect(MagneticPoleZone(horizontalIntensity: 1999.999) == .blackout)
        #expect(MagneticPoleZone(horizontalIntensity: 2000) == .caution)
        #expect(MagneticPoleZone(horizontalIntensity: 5999.999) == .caution)
        #expect(MagneticPoleZone(horizontalIntensity: 6000) == .normal)
    }

    @Test func highResolutionZone() throws {
        // wmmhr 1.2.4 gives H = 3035.374 nT at (76, 100).
        let e = try GeomagneticModel.wmmhr2025.elements(latitude: 76, longitude: 100, height: 0, decimalYear: 2026.0)
        #expect(abs(e.horizontalIntensity - 3035.374) < 0.001)
        #expect(e.zone == .caution)
    }

    @Test func declinationUncertaintyFollowsNOAAErrorModel() throws {
        // pygeomag 1.1.0 at Boulder (40, −105, 0 km, 2026.0).
        let wmm = try GeomagneticModel.wmm2025.elements(latitude: 40, longitude: -105, height: 0, decimalYear: 2026)
        #expect(abs(wmm.declinationUncertainty - 0.36826536282035754) < 1e-9)
        let hr = try GeomagneticModel.wmmhr2025.elements(latitude: 40, longitude: -105, height: 0, decimalYear: 2026)
        #expect(abs(hr.declinationUncertainty - 0.3542381160618149) < 1e-9)
        // Near the pole, where H = 877.29 nT (pygeomag, WMMHR): 5.938°.
        let polar = try GeomagneticModel.wmmhr2025.elements(latitude: 84, longitude: 140, height: 0, decimalYear: 2026)
        #expect(abs(polar.declinationUncertainty - 5.938307857846853) < 1e-6)
    }

    @Test func uncertaintyFormulaAndCap() {
        // σ_D = √(0.26² + (5417/H)²): at H = 5417 nT that is √(1.0676).
        #expect(abs(GeomagneticErrorModel.wmm2025.declinationUncertainty(horizontalIntensity: 5417)
                    - 1.0676.squareRoot()) < 1e-12)
        #expect(abs(GeomagneticErrorModel.wmmhr2025.declinationUncertainty(horizontalIntensity: 5205)
                    - 1.0625.squareRoot()) < 1e-12)
        #expect(GeomagneticErrorModel.wmm2025.declinationUncertainty(horizontalIntensity: 0) == 180)
    }
}
