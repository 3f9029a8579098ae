import Testing
@testable import LodestoneGeomagnetism

/// Every column of NOAA's 12 WMM2025 and 12 WMMHR2025 test points, to the
/// precision NOAA printed (half a unit in the last printed digit).
@Suite struct OfficialTestValueTests {
    @Test(arguments: OfficialTestValues.wmm2025)
    func wmm2025(_ line: String) throws {
        try check(line, model: .wmm2025)
    }

    @Test(arguments: OfficialTestValues.wmmhr2025)
    func wmmhr2025(_ line: String) throws {
        try check(line, model: .wmmhr2025)
    }

    func check(_ line: String, model: GeomagneticModel) throws {
        let expected = OfficialTestValues.values(line)
        let decimals = OfficialTestValues.decimals(line)
        let e = try model.elements(latitude: expected[2], longitude: expected[3],
                                   height: expected[1], decimalYear: expected[0])
        let r = e.yearlyChange
        let actual: [Double] = [
            e.decimalYear, e.height, e.latitude, e.longitude,
            e.north, e.east, e.down, e.horizontalIntensity, e.totalIntensity,
            e.inclination, e.declination, e.gridVariation ?? .nan,
            r.north, r.east, r.down, r.horizontalIntensity, r.totalIntensity,
            r.inclination, r.declination,
        ]
        let names = ["year", "height", "lat", "lon", "X", "Y", "Z", "H", "F", "I", "D", "GV",
                     "Xdot", "Ydot", "Zdot", "Hdot", "Fdot", "Idot", "Ddot"]
        #expect(actual.count == expected.count)
        for column in 4..<expected.count {
            if expected[column].isNaN {
                #expect(actual[column].isNaN, "\(names[column]) should be undefined: \(line)")
                continue
            }
            var unit = 1.0
            for _ in 0..<decimals[column] { unit /= 10 }
            let error = abs(actual[column] - expected[column])
            #expect(error <= unit / 2 + 1e-9,
                    "\(model) \(names[column]) = \(actual[column]), NOAA printed \(expected[column]) (\(line))")
        }
    }
}
