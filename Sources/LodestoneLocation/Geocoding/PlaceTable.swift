import LodestoneSteering

/// The table of populated places behind ``PlaceGeocoder`` and ``PlaceSearch``.
///
/// **Text layout** (UTF-8, one record a line, tab-separated; written by
/// `tools/generate-place-table.py`), in sections:
/// - `#countries`: `CC<TAB>name`, the n-th line is country n;
/// - `#admin1`: `country index<TAB>name` (name may be empty);
/// - `#admin2`: `name`;
/// - `#fold`: `hex scalar<TAB>folded text`, the search folding of non-ASCII letters;
/// - `#places`: `name<TAB>lat<TAB>lon<TAB>admin1 index<TAB>admin2 index or empty<TAB>population`,
///   coordinates in 1e-5 degrees.
///
/// **Why a Swift string literal.** The bundled table ships inside the binary as a
/// `StaticString` (`Generated/GeoNamesPlaces.swift`): SwiftPM resources would need
/// Foundation's `Bundle` (which `lodestone-serve` avoids) and a resource directory
/// beside the executable, and a file path would need an install step; a string
/// literal needs neither, compiles in about a second (an array literal of this size
/// would take the type checker minutes), sits in read-only pages, and costs memory
/// only when loaded. Names stay slices of the text until a place is returned.
public struct PlaceTable: Sendable {
    struct Record: Sendable {
        var nameStart: UInt32
        var nameLength: UInt16
        var admin1: UInt16
        var admin2: Int32
        var latitudeE5: Int32
        var longitudeE5: Int32
        var population: UInt32
    }

    /// The text: the bundled literal in place (no copy), or bytes read from elsewhere.
    enum Text: Sendable {
        case literal(StaticString)
        case bytes([UInt8])

        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(PlaceTableError) -> R) throws(PlaceTableError) -> R {
            switch self {
            case .literal(let s):
                return try body(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
            case .bytes(let b):
                return try b.withUnsafeBufferPointer { (p) throws(PlaceTableError) in try body(p) }
            }
        }

        var count: Int {
            switch self {
            case .literal(let s): return s.utf8CodeUnitCount
            case .bytes(let b): return b.count
            }
        }
    }

    let text: Text
    let countries: [(code: String, name: String)]
    let admin1: [(country: Int, name: String?)]
    let admin2: [String]
    /// Unicode scalar → its search folding, for letters that are not ASCII.
    let folds: [UInt32: String]
    let records: [Record]

    /// Number of places.
    public var count: Int { records.count }

    /// Parses a table in the layout above; errors name the line.
    public init(text bytes: [UInt8]) throws(PlaceTableError) {
        try self.init(.bytes(bytes))
    }

    init(_ text: Text) throws(PlaceTableError) {
        let parser = try text.withBytes { (bytes) throws(PlaceTableError) in
            var parser = PlaceTableParser(bytes)
            try parser.parse()
            return parser
        }
        self.text = text
        countries = parser.countries
        admin1 = parser.admin1
        admin2 = parser.admin2
        folds = parser.folds
        records = parser.records
    }

    /// The bundled GeoNames table (`cities1000`, CC BY 4.0), parsed on first use and kept.
    public static func bundled() throws(PlaceTableError) -> PlaceTable {
        try bundledResult.get()
    }

    private static let bundledResult: Result<PlaceTable, PlaceTableError> = {
        Result { () throws(PlaceTableError) in try PlaceTable(.literal(geoNamesText)) }
    }()

    /// The place at `index` as a value.
    public func place(at index: Int) -> Place {
        let r = records[index]
        let area = admin1[Int(r.admin1)]
        return Place(name: name(of: index), isoCountryCode: countries[area.country].code, country: countries[area.country].name,
                     administrativeArea: area.name, subAdministrativeArea: r.admin2 >= 0 ? admin2[Int(r.admin2)] : nil,
                     coordinate: coordinate(of: index), population: Int(r.population))
    }

    func name(of index: Int) -> String {
        let r = records[index]
        let range = Int(r.nameStart)..<(Int(r.nameStart) + Int(r.nameLength))
        // The closure cannot throw; `try?` only satisfies the typed-throws signature.
        return (try? text.withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }) ?? ""
    }

    func countryCode(of index: Int) -> String {
        countries[admin1[Int(records[index].admin1)].country].code
    }

    func coordinate(of index: Int) -> GeoCoordinate {
        let r = records[index]
        guard let c = try? GeoCoordinate(latitude: Double(r.latitudeE5) / 1e5, longitude: Double(r.longitudeE5) / 1e5) else {
            preconditionFailure("the parser checked every coordinate")
        }
        return c
    }
}

