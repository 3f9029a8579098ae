import Testing
@testable import LodestoneGeomagnetism

/// Dates, heights and input the models accept or refuse.
@Suite struct ValidityTests {
    let wmm = GeomagneticModel.wmm2025

    @Test func lifeSpanIsEpochToFiveYearsLater() {
        #expect(GeomagneticModel.wmm2025.validity == 2025.0...2030.0)
        #expect(GeomagneticModel.wmmhr2025.validity == 2025.0...2030.0)
        #expect(GeomagneticModel.wmm2025.releaseDate == "2024-11-13")
        #expect(GeomagneticModel.wmmhr2025.mainFieldDegree == 133)
        #expect(GeomagneticModel.wmmhr2025.secularVariationDegree == 15)
    }

    @Test(arguments: [2024.999, 2030.001, 2020.0, 2040.0])
    func datesOutsideTheLifeSpanThrow(year: Double) {
        #expect(throws: GeomagneticError.dateOutsideValidity(decimalYear: year, model: "WMM2025",
                                                               validFrom: 2025, validUntil: 2030)) {
            try wmm.elements(latitude: 10, longitude: 20, height: 0, decimalYear: year)
        }
    }

    @Test func lifeSpanEndsAreIncluded() throws {
        #expect(try !wmm.elements(latitude: 10, longitude: 20, height: 0, decimalYear: 2025.0).isExtrapolated)
        #expect(try !wmm.elements(latitude: 10, longitude: 20, height: 0, decimalYear: 2030.0).isExtrapolated)
    }

    @Test func extrapolationWhenAllowedIsMarkedAndContinuous() throws {
        let end = try wmm.elements(latitude: 10, longitude: 20, height: 0, decimalYear: 2030.0)
        let after = try wmm.elements(latitude: 10, longitude: 20, height: 0, decimalYear: 2030.001,
                                     allowExtrapolation: true)
        #expect(after.isExtrapolated)
        #expect(!end.isExtrapolated)
        // Linear secular variation carries on past the end: 0.001 yr of Fdot.
        #expect(abs(after.totalIntensity - end.totalIntensity - 0.001 * end.yearlyChange.totalIntensity) < 1e-3)
        let before = try wmm.elements(latitude: 10, longitude: 20, height: 0, decimalYear: 2024.5,
                                      allowExtrapolation: true)
        #expect(before.isExtrapolated)
    }

    @Test(arguments: [-1.0, 0, 850])
    func heightLimitsAreIncluded(height: Double) throws {
        for model in [GeomagneticModel.wmm2025, .wmmhr2025] {
            let e = try model.elements(latitude: 45, longitude: 7, height: height, decimalYear: 2026)
            #expect(!e.isExtrapolated)
            #expect(e.totalIntensity > 15_000 && e.totalIntensity < 70_000)
        }
    }

    @Test(arguments: [-1.001, 850.001, -100, 2000])
    func heightsOutsideTheSpecificationThrowUnlessAllowed(height: Double) throws {
        #expect(throws: GeomagneticError.heightOutsideValidity(heightKilometres: height, model: "WMM2025",
                                                                 lowest: -1, highest: 850)) {
            try wmm.elements(latitude: 45, longitude: 7, height: height, decimalYear: 2026)
        }
        let e = try wmm.elements(latitude: 45, longitude: 7, height: height, decimalYear: 2026,
                                 allowExtrapolation: true)
        #expect(e.isExtrapolated)
    }

    @Test func fieldWeakensWithHeight() throws {
        // Dipole-like fall-off: F(850 km) / F(0) ≈ (6371 / 7221)^3 ≈ 0.69.
        let ground = try wmm.elements(latitude: 45, longitude: 7, height: 0, decimalYear: 2026)
        let orbit = try wmm.elements(latitude: 45, longitude: 7, height: 850, decimalYear: 2026)
        let ratio = orbit.totalIntensity / ground.totalIntensity
        #expect(ratio > 0.6 && ratio < 0.75)
    }

    @Test func badInputIsRefused() {
        #expect(throws: GeomagneticError.latitudeOutOfRange(90.0001)) {
            try wmm.elements(latitude: 90.0001, longitude: 0, height: 0, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.latitudeOutOfRange(-91)) {
            try wmm.elements(latitude: -91, longitude: 0, height: 0, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.notFinite("longitude")) {
            try wmm.elements(latitude: 0, longitude: .nan, height: 0, decimalYear: 2026)
        }
        #expect(throws: GeomagneticError.notFinite("decimal year")) {
            try wmm.elements(latitude: 0, longitude: 0, height: 0, decimalYear: .infinity, allowExtrapolation: true)
        }
    }

    @Test func errorsSayWhatToDo() {
        let error = GeomagneticError.dateOutsideValidity(decimalYear: 2031, model: "WMM2025",
                                                         validFrom: 2025, validUntil: 2030)
        #expect(error.description.contains("2031"))
        #expect(error.description.contains("extrapolation"))
    }
}
