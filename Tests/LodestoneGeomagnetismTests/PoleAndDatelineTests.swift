import Testing
@testable import LodestoneGeomagnetism

/// Geometry edge cases: the geographic poles (exactly ±90°) and the dateline.
/// Accuracy at these points against an independent implementation is in
/// ReferenceComparisonTests (its fixtures hold exact ±90° and ±180° rows).
@Suite struct PoleAndDatelineTests {
    static let models: [GeomagneticModel] = [.wmm2025, .wmmhr2025]

    @Test(arguments: models, [90.0, -90.0])
    func poleIsFiniteAndIndependentOfLongitude(model: GeomagneticModel, latitude: Double) throws {
        // At a pole the north/east axes turn with the meridian, but the field
        // itself does not: H, Z, F, I and the grid variation (D − λ or D + λ)
        // must be the same whatever longitude is given.
        let reference = try model.elements(latitude: latitude, longitude: 0, height: 0, decimalYear: 2026.5)
        for longitude in [-180.0, -97.3, 33.3, 120, 180, 359] {
            let e = try model.elements(latitude: latitude, longitude: longitude, height: 0, decimalYear: 2026.5)
            #expect(abs(e.horizontalIntensity - reference.horizontalIntensity) < 1e-6)
            #expect(abs(e.down - reference.down) < 1e-6)
            #expect(abs(e.totalIntensity - reference.totalIntensity) < 1e-6)
            #expect(abs(e.inclination - reference.inclination) < 1e-9)
            let gv = try #require(e.gridVariation)
            #expect(abs(angleDifference(gv, reference.gridVariation!)) < 1e-7)
            let rates = e.yearlyChange
            #expect(abs(rates.totalIntensity - reference.yearlyChange.totalIntensity) < 1e-6)
            #expect([rates.north, rates.east, rates.down, rates.declination, rates.inclination].allSatisfy { $0.isFinite })
        }
    }

    @Test(arguments: models, [90.0, -90.0])
    func poleIsTheLimitOfNearbyPoints(model: GeomagneticModel, latitude: Double) throws {
        // The pole value is the limit of values approaching it along a meridian.
        let pole = try model.elements(latitude: latitude, longitude: 45, height: 10, decimalYear: 2027)
        let near = try model.elements(latitude: latitude * (1 - 1e-9), longitude: 45, height: 10, decimalYear: 2027)
        for (a, b) in [(pole.north, near.north), (pole.east, near.east), (pole.down, near.down),
                       (pole.yearlyChange.north, near.yearlyChange.north),
                       (pole.yearlyChange.east, near.yearlyChange.east)] {
            #expect(abs(a - b) < 1e-3)
        }
        #expect(abs(angleDifference(pole.declination, near.declination)) < 1e-6)
    }

    @Test(arguments: models)
    func dateline180AndMinus180AreTheSamePlace(model: GeomagneticModel) throws {
        for latitude in [-70.0, -12.5, 0, 33.3, 66.6] {
            let east = try model.elements(latitude: latitude, longitude: 180, height: 5, decimalYear: 2028.2)
            let west = try model.elements(latitude: latitude, longitude: -180, height: 5, decimalYear: 2028.2)
            let turned = try model.elements(latitude: latitude, longitude: 540, height: 5, decimalYear: 2028.2)
            #expect(east.north == west.north && east.east == west.east && east.down == west.down)
            #expect(east.yearlyChange == west.yearlyChange)
            #expect(east.north == turned.north && east.east == turned.east && east.down == turned.down)
            #expect(east.gridVariation.map { abs(angleDifference($0, west.gridVariation!)) < 1e-12 } ?? true)
        }
    }

    @Test(arguments: models)
    func continuousAcrossTheDateline(model: GeomagneticModel) throws {
        for latitude in [-60.0, 0, 45] {
            let east = try model.elements(latitude: latitude, longitude: 179.99999, height: 0, decimalYear: 2026)
            let west = try model.elements(latitude: latitude, longitude: -179.99999, height: 0, decimalYear: 2026)
            // 2.2 m apart: the field may differ by far less than a nanotesla.
            #expect(abs(east.totalIntensity - west.totalIntensity) < 0.01)
            #expect(abs(angleDifference(east.declination, west.declination)) < 1e-4)
        }
    }

    @Test func longitudesAbove180WrapAround() throws {
        let a = try GeomagneticModel.wmm2025.elements(latitude: -80, longitude: 240, height: 0, decimalYear: 2025)
        let b = try GeomagneticModel.wmm2025.elements(latitude: -80, longitude: -120, height: 0, decimalYear: 2025)
        #expect(abs(a.declination - b.declination) < 1e-12)
        #expect(abs(a.totalIntensity - b.totalIntensity) < 1e-9)
        // Grid variation uses the longitude as given: D + 240 and D − 120 are the same angle.
        #expect(abs(angleDifference(a.gridVariation!, b.gridVariation!)) < 1e-9)
    }
}

/// Signed difference of two angles in degrees, in (−180, 180].
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
    return d
}
