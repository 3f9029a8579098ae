import Testing
@testable import LodestoneGeomagnetism

/// Formatting NOAA's own test points must give NOAA's printed rows back.
@Suite struct CSVFormatTests {
    @Test(arguments: OfficialTestValues.wmm2025.map { ($0, "WMM2025") } + OfficialTestValues.wmmhr2025.map { ($0, "WMMHR2025") })
    func roundTripsNOAARows(_ line: String, _ modelName: String) throws {
        let model: GeomagneticModel = modelName == "WMM2025" ? .wmm2025 : .wmmhr2025
        let v = OfficialTestValues.values(line)
        let e = try model.elements(latitude: v[2], longitude: v[3], height: v[1], decimalYear: v[0])
        let expected = line.split(separator: " ").joined(separator: ",").replacingOccurrences(of: "NaN", with: "nan")
        #expect(GeomagneticCSV.row(e) == expected)
    }

    @Test func headerNamesNineteenColumns() {
        #expect(GeomagneticCSV.header.split(separator: ",").count == 19)
    }

    @Test func fixedDecimals() {
        #expect(GeomagneticCSV.fixed(6521.64, 1) == "6521.6")
        #expect(GeomagneticCSV.fixed(-0.004, 2) == "-0.00")  // as printf prints it
        #expect(GeomagneticCSV.fixed(0.005, 0) == "0")
        #expect(GeomagneticCSV.fixed(-72.0, 2) == "-72.00")
        #expect(GeomagneticCSV.fixed(0.07, 2) == "0.07")
        #expect(GeomagneticCSV.fixed(.nan, 2) == "nan")
    }

    @Test func inputsKeepSixDecimalsAtMost() {
        #expect(GeomagneticCSV.input(2025.0) == "2025.0")
        #expect(GeomagneticCSV.input(52.512) == "52.512")
        #expect(GeomagneticCSV.input(-0.1234567) == "-0.123457")
        #expect(GeomagneticCSV.input(-180) == "-180.0")
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
