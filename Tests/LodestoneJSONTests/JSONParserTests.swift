@testable import LodestoneJSON
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let v = try JSONParser.parse(#"{"a":[1,-2.5e2,0.125,true,false,null],"b":{"c":"d"},"e":"x\"\\\/\b\f\n\r\t\u00e9\ud83e\udded"}"#)
        #expect(v["a"] == .array([.number(1), .number(-250), .number(0.125), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("d"))
        #expect(v["e"] == .string("x\"\\/\u{08}\u{0C}\n\r\té🧭"))
    }

    @Test func whitespaceAroundValuesIsAllowed() throws {
        #expect(try JSONParser.parse(" \n\t{ \"k\" : [ 1 , 2 ] }\r\n ") == .object(["k": .array([.number(1), .number(2)])]))
    }

    @Test(arguments: [
        ("", "expected a value, found the end of the text", 1, 1),
        ("{\"a\":1,}", "expected a key in double quotes, found '}'", 1, 8),
        ("[1,2", "unterminated array: expected ',' or ']'", 1, 5),
        ("{\"a\" 1}", "expected ':' after key \"a\", found '1'", 1, 6),
        ("{\n  \"a\": 1,\n  \"a\": 2\n}", "duplicate key \"a\"", 3, 3),
        ("01", "a number must not start with 0", 1, 1),
        ("1.", "expected a digit after '.'", 1, 3),
        ("NaN", "expected a value, found 'N'", 1, 1),
        ("\"abc", "unterminated string", 1, 1),
        ("\"a\\q\"", "unknown escape \\q", 1, 3),
        ("\"\\ud800\"", "unpaired surrogate in \\u escape", 1, 8),
        ("{} x", "unexpected text after the JSON value", 1, 4),
        ("1e999", "number 1e999 is out of range", 1, 1),
        ("tru", "expected a value, found 't'", 1, 1),
    ])
    func errorsSayWhatAndWhere(text: String, message: String, line: Int, column: Int) {
        #expect(throws: JSONParser.Failure(message: message, line: line, column: column)) { try JSONParser.parse(text) }
    }

    @Test func controlCharactersInStringsAreRefused() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("\"a\u{01}b\"") }
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = [0x22, 0xFF, 0x22]
        #expect(throws: JSONParser.Failure.self) { try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) } }
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParser.Failure(message: "nested deeper than 64 levels", line: 1, column: 65)) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONParser.parse(ok)) != nil)
    }
}
