/// Reads the text layout of ``PlaceTable`` (see there) with checks that name the line.
struct PlaceTableParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 0
    var countries: [(code: String, name: String)] = []
    var admin1: [(country: Int, name: String?)] = []
    var admin2: [String] = []
    var folds: [UInt32: String] = [:]
    var records: [PlaceTable.Record] = []

    private enum Section: String {
        case countries = "#countries", admin1 = "#admin1", admin2 = "#admin2", fold = "#fold", places = "#places"
    }

    /// `bytes` must outlive the parser (it is only used inside `PlaceTable.init`).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        records.reserveCapacity(bytes.count / 40)
    }

    mutating func parse() throws(PlaceTableError) {
        if let bad = Self.firstInvalidUTF8(bytes) {
            line = 1 + bytes[..<bad].count(where: { $0 == 0x0A })
            throw fail("the text is not valid UTF-8 (byte \(bad))")
        }
        var section: Section?
        while let (start, end) = nextLine() {
            if bytes[start] == 0x23 {
                guard let s = Section(rawValue: String(decoding: bytes[start..<end], as: UTF8.self)) else {
                    throw fail("unknown section \(String(decoding: bytes[start..<end], as: UTF8.self))")
                }
                section = s
                continue
            }
            switch section {
            case .countries: try country(start, end)
            case .admin1: try area(start, end)
            case .admin2: admin2.append(String(decoding: bytes[start..<end], as: UTF8.self))
            case .fold: try fold(start, end)
            case .places: try place(start, end)
            case nil: throw fail("data before the first section")
            }
        }
        guard !records.isEmpty else { throw fail("the table has no places") }
    }

    /// The offset of the first byte that is not part of valid UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private func fail(_ message: String) -> PlaceTableError {
        PlaceTableError(line: line, message: message)
    }

    /// The next non-empty line as a byte range.
    private mutating func nextLine() -> (Int, Int)? {
        while index < bytes.count {
            let start = index
            while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            let end = index
            index += 1
            line += 1
            if end > start { return (start, end) }
        }
        return nil
    }

    private func fields(_ start: Int, _ end: Int) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var s = start
        for i in start..<end where bytes[i] == 0x09 {
            result.append(s..<i)
            s = i + 1
        }
        result.append(s..<end)
        return result
    }

    private func string(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }

    private func integer(_ r: Range<Int>, _ what: String) throws(PlaceTableError) -> Int {
        guard !r.isEmpty, r.count < 19 else { throw fail("\(what) is missing or too long") }
        var value = 0, negative = false, i = r.lowerBound
        if bytes[i] == 0x2D { negative = true; i += 1 }
        guard i < r.upperBound else { throw fail("\(what) '\(string(r))' is not an integer") }
        while i < r.upperBound {
            let d = Int(bytes[i]) - 0x30
            guard d >= 0, d <= 9 else { throw fail("\(what) '\(string(r))' is not an integer") }
            value = value * 10 + d
            i += 1
        }
        return negative ? -value : value
    }

    private mutating func country(_ start: Int, _ end: Int) throws(PlaceTableError) {
        let f = fields(start, end)
        guard f.count == 2, f[0].count == 2 else { throw fail("a country needs CC<TAB>name") }
        countries.append((string(f[0]), string(f[1])))
    }

    private mutating func area(_ start: Int, _ end: Int) throws(PlaceTableError) {
        let f = fields(start, end)
        guard f.count == 2 else { throw fail("an admin1 line needs country<TAB>name") }
        let country = try integer(f[0], "country index")
        guard countries.indices.contains(country) else { throw fail("country index \(country) is not in #countries") }
        admin1.append((country, f[1].isEmpty ? nil : string(f[1])))
    }

    private mutating func fold(_ start: Int, _ end: Int) throws(PlaceTableError) {
        let f = fields(start, end)
        guard f.count == 2, let code = UInt32(string(f[0]), radix: 16), Unicode.Scalar(code) != nil else {
            throw fail("a fold line needs a hex scalar<TAB>text")
        }
        folds[code] = string(f[1])
    }

    private mutating func place(_ start: Int, _ end: Int) throws(PlaceTableError) {
        // The hot path: six fields split without an array per line.
        var f: (Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0, s = start
        for i in start...end where i == end || bytes[i] == 0x09 {
            switch count {
            case 0: f.0 = s..<i
            case 1: f.1 = s..<i
            case 2: f.2 = s..<i
            case 3: f.3 = s..<i
            case 4: f.4 = s..<i
            case 5: f.5 = s..<i
            default: break
            }
            count += 1
            s = i + 1
        }
        guard count == 6 else { throw fail("a place needs 6 fields, not \(count)") }
        guard !f.0.isEmpty, f.0.count <= Int(UInt16.max) else { throw fail("the place name is empty or too long") }
        let latitude = try integer(f.1, "latitude"), longitude = try integer(f.2, "longitude")
        guard abs(latitude) <= 9_000_000, abs(longitude) <= 18_000_000 else {
            throw fail("coordinates \(latitude), \(longitude) (1e-5 degrees) are out of range")
        }
        let area = try integer(f.3, "admin1 index")
        guard admin1.indices.contains(area), area <= Int(UInt16.max) else { throw fail("admin1 index \(area) is not in #admin1") }
        let county = f.4.isEmpty ? -1 : try integer(f.4, "admin2 index")
        guard county == -1 || admin2.indices.contains(county) else { throw fail("admin2 index \(county) is not in #admin2") }
        let population = try integer(f.5, "population")
        guard population >= 0, population <= Int(UInt32.max) else { throw fail("population \(population) is out of range") }
        records.append(PlaceTable.Record(nameStart: UInt32(f.0.lowerBound), nameLength: UInt16(f.0.count), admin1: UInt16(area),
                                         admin2: Int32(county), latitudeE5: Int32(latitude), longitudeE5: Int32(longitude),
                                         population: UInt32(population)))
    }
}
