import Testing
@testable import LodestoneLocation

@Suite struct PlaceTableTests {
    static let good = """
        #countries
        CH\tSwitzerland
        #admin1
        0\tValais
        0\t
        #admin2
        Visp District
        #fold
        FC\tu
        #places
        Zermatt\t4602070\t774910\t0\t0\t6629
        Nowhere\t-100\t200\t1\t\t0
        """

    static func error(_ text: String) -> PlaceTableError? {
        do {
            _ = try PlaceTable(text: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func readsTheLayout() throws {
        let table = try PlaceTable(text: Array(Self.good.utf8))
        #expect(table.count == 2)
        let zermatt = table.place(at: 0)
        #expect(zermatt.name == "Zermatt" && zermatt.isoCountryCode == "CH" && zermatt.country == "Switzerland")
        #expect(zermatt.administrativeArea == "Valais" && zermatt.subAdministrativeArea == "Visp District" && zermatt.population == 6629)
        #expect(zermatt.coordinate.latitude == 46.0207 && zermatt.coordinate.longitude == 7.7491)
        let nowhere = table.place(at: 1)
        #expect(nowhere.administrativeArea == nil && nowhere.subAdministrativeArea == nil)
        #expect(nowhere.coordinate.latitude == -0.001 && nowhere.coordinate.longitude == 0.002)
        #expect(PlaceGeocoder(table: table).nearest(to: nowhere.coordinate).place == nowhere)
    }

    @Test(arguments: [
        (good.replacingOccurrences(of: "#fold", with: "#folds"), 8, "unknown section #folds"),
        (good.replacingOccurrences(of: "0\t0\t6629", with: "0\t0"), 11, "a place needs 6 fields, not 5"),
        (good.replacingOccurrences(of: "4602070", with: "9100000"), 11, "coordinates 9100000, 774910 (1e-5 degrees) are out of range"),
        (good.replacingOccurrences(of: "774910\t0", with: "774910\t7"), 11, "admin1 index 7 is not in #admin1"),
        (good.replacingOccurrences(of: "\t6629", with: "\t66x9"), 11, "population '66x9' is not an integer"),
        (good.replacingOccurrences(of: "0\tValais", with: "3\tValais"), 4, "country index 3 is not in #countries"),
        ("CH\tSwitzerland", 1, "data before the first section"),
        ("#countries\nCH\tSwitzerland\n#places\n", 3, "the table has no places"),
    ])
    func badTablesNameTheLine(text: String, line: Int, message: String) {
        let error = Self.error(text)
        #expect(error == PlaceTableError(line: line, message: message), "\(String(describing: error))")
    }

    @Test func invalidUTF8IsRefusedWithItsLine() {
        var bytes = Array(Self.good.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "Z"))!
        bytes[at + 1] = 0xC3
        bytes[at + 2] = 0x28
        #expect(throws: PlaceTableError(line: 11, message: "the text is not valid UTF-8 (byte \(at + 1))")) {
            try PlaceTable(text: bytes)
        }
    }
}
