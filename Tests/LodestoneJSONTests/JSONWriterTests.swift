import Foundation
import LodestoneJSON
import Testing

/// The writer's documents against Foundation's `JSONEncoder`, which wrote calibration
/// profiles and log metadata before: files written now must be the same bytes.
@Suite struct JSONWriterTests {
    static func written(_ value: JSONValue, pretty: Bool) -> String {
        let w = JSONLineBuilder(capacity: 1024)
        w.append(value, pretty: pretty)
        return w.text
    }

    static func foundation(_ value: JSONValue, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let document: JSONValue = .object([
        "formatVersion": .number(1),
        "empty": .object([:]),
        "none": .array([]),
        "nested": .array([.array([.number(0.9168783530149323), .number(-0.040125454841135076), .number(1e-05)]), .array([]), .object([:])]),
        "numbers": .array([83, 0.1, 1e16, 1e22, 1.2345678901234568e+20, -0.0, Double.leastNonzeroMagnitude, 1.5e300, -273.15, 123_456_789].map(JSONValue.number)),
        "text": .string("a/b \"q\" \\ \u{01}\u{08}\u{0C}\n\r\t\u{1F}\u{7F} µT é 🧭"),
        "flags": .array([.bool(true), .bool(false), .null]),
        "B": .string("upper case sorts first"), "_": .number(3), "aa": .number(4), "é": .number(5), "e": .number(6),
    ])

    @Test(arguments: [false, true])
    func matchesFoundationsEncoderByteForByte(pretty: Bool) throws {
        #expect(Self.written(Self.document, pretty: pretty) == (try Self.foundation(Self.document, pretty: pretty)))
    }

    @Test func randomNumbersMatchAndReadBackBitExact() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bits = generator.next() as UInt64
            let v = Double(bitPattern: bits)
            guard v.isFinite else { continue }
            let scaled = Double.random(in: -1000...1000, using: &generator)
            for n in [v, scaled, scaled.rounded()] {
                let value = JSONValue.array([.number(n)])
                let text = Self.written(value, pretty: false)
                #expect(text == (try Self.foundation(value, pretty: false)))
                #expect(try JSONParser.parse(text) == value, "\(text)")
            }
        }
    }

    @Test func nonFiniteNumbersBecomeNull() {
        #expect(Self.written(.array([.number(.nan), .number(.infinity)]), pretty: false) == "[null,null]")
    }

    @Test func whatItWritesParsesBackToTheSameValue() throws {
        for pretty in [false, true] {
            #expect(try JSONParser.parse(Self.written(Self.document, pretty: pretty)) == Self.document)
        }
    }
}

@Suite struct JSONFieldTests {
    static let document = try! JSONParser.parse(#"{"a":{"b":[1,"x",null,"nan"],"s":"text","n":null},"kind":"left","i":2.5}"#)

    enum Side: String, CaseIterable { case left, right }

    @Test func readsTypedValuesAndNamesTheFieldOnErrors() throws {
        let root = JSONField(Self.document)
        let a = try root.member("a")
        let b = try a.member("b").array()
        #expect(try b[0].number() == 1)
        #expect(b[1].path == "a.b[1]")
        #expect(throws: JSONFieldError.wrongType(path: "a.b[1]", expected: "a number", found: "a string")) { try b[1].number() }
        #expect(throws: JSONFieldError.wrongType(path: "a.b[2]", expected: "a number", found: "null")) { try b[2].number() }
        #expect(try b[2].optionalNumber() == nil)
        #expect(try b[3].number(nonFiniteStrings: true).isNaN)
        #expect(throws: JSONFieldError.self) { try b[3].number() }
        #expect(try a.member("s").string() == "text")
        #expect(try a.member("n").optionalString() == nil)
        #expect(try a.member("absent").optionalString() == nil)
        #expect(throws: JSONFieldError.missing(path: "a.absent")) { try a.member("absent").string() }
        #expect(throws: JSONFieldError.wrongType(path: "a.s", expected: "an object", found: "a string")) { try a.member("s").member("x") }
        #expect(try root.member("kind").oneOf(Side.self) == .left)
        #expect(throws: JSONFieldError.invalid(path: "a.s", reason: "must be left, right, not \"text\"")) { try a.member("s").oneOf(Side.self) }
        #expect(throws: JSONFieldError.wrongType(path: "i", expected: "an integer", found: "2.5")) { try root.member("i").integer() }
        #expect(throws: JSONFieldError.wrongType(path: "(top level)", expected: "an object", found: "an array")) {
            try JSONField(.array([])).member("x")
        }
        #expect(JSONFieldError.missing(path: "a.absent").description == "field a.absent is missing")
    }
}
