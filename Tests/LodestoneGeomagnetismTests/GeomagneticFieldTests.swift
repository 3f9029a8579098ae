import Testing
@testable import LodestoneGeomagnetism

/// The Android-style convenience: metres, Unix time, µT.
@Suite struct GeomagneticFieldTests {
    @Test func convertsUnitsOfTheNOAAResult() throws {
        // 2027-07-03T12:00:00Z, 1500 m above the ellipsoid, Berlin.
        let field = try GeomagneticField(latitude: 52.512, longitude: 13.327, altitude: 1500,
                                         unixTime: 1_814_616_000)
        let e = try GeomagneticModel.wmm2025.elements(latitude: 52.512, longitude: 13.327, height: 1.5,
                                                      decimalYear: DecimalYear.from(unixTime: 1_814_616_000))
        #expect(field.elements == e)
        #expect(field.declination == e.declination)
        #expect(field.inclination == e.inclination)
        #expect(abs(field.fieldStrength - e.totalIntensity / 1000) < 1e-12)
        #expect(abs(field.horizontalStrength - e.horizontalIntensity / 1000) < 1e-12)
        #expect(abs(field.northEastDown.length - field.fieldStrength) < 1e-9)
        #expect(field.northEastDown.z > 0)  // northern hemisphere: the field dips down
        #expect(!field.isExtrapolated)
        #expect(field.isTrueHeadingReliable)
    }

    @Test func usesTheChosenModel() throws {
        let hr = try GeomagneticField(latitude: 0, longitude: 120, altitude: 0, unixTime: 1_735_689_600,
                                      model: .wmmhr2025)
        #expect(hr.elements.model == "WMMHR2025")
        // NOAA WMMHR2025 test value at (0, 120, 0 km, 2025.0): D = −0.14°.
        #expect(abs(hr.declination - -0.14) <= 0.005)
    }

    @Test func outsideTheModelDatesItThrowsUnlessAllowed() throws {
        #expect(throws: GeomagneticError.self) {
            try GeomagneticField(latitude: 0, longitude: 0, altitude: 0, unixTime: 0)  // 1970
        }
        let old = try GeomagneticField(latitude: 0, longitude: 0, altitude: 0, unixTime: 1_700_000_000,
                                       allowExtrapolation: true)
        #expect(old.isExtrapolated)
    }
}
