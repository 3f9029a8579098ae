/// A strict RFC 8259 JSON parser: the one JSON reader of the package (config
/// files, client commands, gpsd reports, calibration profiles, log metadata).
///
/// The daemon keeps Foundation out, even FoundationEssentials (its resident memory:
/// docs/service.md), so the package parses JSON itself. Errors say where (line and column) and what was
/// expected. Duplicate keys are refused: in a config file the second value
/// would silently win. Nesting is limited so that hostile input cannot
/// exhaust the stack.
public enum JSONParser {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int

        public var description: String { "line \(line), column \(column): \(message)" }
    }

    public static let maximumDepth = 64

    public static func parse(_ text: String) throws(Failure) -> JSONValue {
        var copy = text
        return try copy.withUTF8 { bytes in Result { () throws(Failure) in try parse(bytes) } }.get()
    }

    /// The bytes of a file, as read.
    public static func parse(bytes: [UInt8]) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(Failure) in try parse(buffer) } }.get()
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.atEnd else { throw reader.failure("unexpected text after the JSON value") }
        return value
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i >= bytes.count }

        func failure(_ message: String, at position: Int? = nil) -> Failure {
            let end = min(position ?? i, bytes.count)
            var line = 1, column = 1
            for k in 0..<end {
                if bytes[k] == 0x0A { line += 1; column = 1 } else if bytes[k] & 0xC0 != 0x80 { column += 1 }
            }
            return Failure(message: message, line: line, column: column)
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        func describeNext() -> String {
            guard i < bytes.count else { return "the end of the text" }
            let b = bytes[i]
            return b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard depth < JSONParser.maximumDepth else { throw failure("nested deeper than \(JSONParser.maximumDepth) levels") }
            guard i < bytes.count else { throw failure("expected a value, found the end of the text") }
            switch bytes[i] {
            case 0x7B: return try object(depth: depth)
            case 0x5B: return try array(depth: depth)
            case 0x22: return .string(try string())
            case 0x74: try literal("true"); return .bool(true)
            case 0x66: try literal("false"); return .bool(false)
            case 0x6E: try literal("null"); return .null
            case 0x2D, 0x30...0x39: return .number(try number())
            default: throw failure("expected a value, found \(describeNext())")
            }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let n = word.utf8CodeUnitCount
            let start = i
            let matches = word.withUTF8Buffer { w -> Bool in
                guard start + n <= bytes.count else { return false }
                for k in 0..<n where bytes[start + k] != w[k] { return false }
                return true
            }
            guard matches else { throw failure("expected a value, found \(describeNext())") }
            i += n
        }

        mutating func object(depth: Int) throws(Failure) -> JSONValue {
            i += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == 0x7D { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x22 else { throw failure("expected a key in double quotes, found \(describeNext())") }
                let keyStart = i
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x3A else { throw failure("expected ':' after key \"\(key)\", found \(describeNext())") }
                i += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                guard members.updateValue(v, forKey: key) == nil else {
                    throw failure("duplicate key \"\(key)\"", at: keyStart)
                }
                skipSpace()
                guard i < bytes.count else { throw failure("unterminated object: expected ',' or '}'") }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x7D { i += 1; return .object(members) }
                throw failure("expected ',' or '}' in an object, found \(describeNext())")
            }
        }

        mutating func array(depth: Int) throws(Failure) -> JSONValue {
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == 0x5D { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw failure("unterminated array: expected ',' or ']'") }
                if bytes[i] == 0x2C { i += 1; continue }
                if bytes[i] == 0x5D { i += 1; return .array(items) }
                throw failure("expected ',' or ']' in an array, found \(describeNext())")
            }
        }

        mutating func number() throws(Failure) -> Double {
            let start = i
            if bytes[i] == 0x2D { i += 1 }
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw failure("expected a digit", at: i) }
            if bytes[i] == 0x30 {
                i += 1
                if i < bytes.count, (0x30...0x39).contains(bytes[i]) { throw failure("a number must not start with 0", at: start) }
            } else {
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == 0x2E {
                i += 1
                guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw failure("expected a digit after '.'") }
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
                i += 1
                if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
                guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw failure("expected a digit in the exponent") }
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            guard let v = Double(text), v.isFinite else { throw failure("number \(text) is out of range", at: start) }
            return v
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard i + 4 <= bytes.count else { throw failure("expected four hex digits after \\u") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case 0x30...0x39: d = UInt32(b - 0x30)
                case 0x41...0x46: d = UInt32(b - 0x41 + 10)
                case 0x61...0x66: d = UInt32(b - 0x61 + 10)
                default: throw failure("expected a hex digit in \\u escape, found \(describeNext())")
                }
                v = v << 4 | d
                i += 1
            }
            return v
        }

        mutating func string() throws(Failure) -> String {
            let open = i
            i += 1
            // Fast path: no escapes.
            var k = i
            while k < bytes.count, bytes[k] != 0x22, bytes[k] != 0x5C, bytes[k] >= 0x20 { k += 1 }
            if k < bytes.count, bytes[k] == 0x22 {
                let s = try validated(i, k, open: open)
                i = k + 1
                return s
            }
            var scalars = String.UnicodeScalarView()
            while true {
                guard i < bytes.count else { throw failure("unterminated string", at: open) }
                let b = bytes[i]
                if b == 0x22 { i += 1; return String(scalars) }
                if b < 0x20 { throw failure("control character in a string (escape it)") }
                if b != 0x5C {
                    var end = i
                    while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C, bytes[end] >= 0x20 { end += 1 }
                    scalars.append(contentsOf: try validated(i, end, open: open).unicodeScalars)
                    i = end
                    continue
                }
                i += 1
                guard i < bytes.count else { throw failure("unterminated string", at: open) }
                let e = bytes[i]
                i += 1
                switch e {
                case 0x22: scalars.append("\"")
                case 0x5C: scalars.append("\\")
                case 0x2F: scalars.append("/")
                case 0x62: scalars.append("\u{08}")
                case 0x66: scalars.append("\u{0C}")
                case 0x6E: scalars.append("\n")
                case 0x72: scalars.append("\r")
                case 0x74: scalars.append("\t")
                case 0x75:
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else {
                            throw failure("unpaired surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("unpaired surrogate in \\u escape") }
                    scalars.append(scalar)
                default:
                    throw failure("unknown escape \\\(Character(Unicode.Scalar(e)))", at: i - 2)
                }
            }
        }

        func validated(_ from: Int, _ to: Int, open: Int) throws(Failure) -> String {
            let slice = UnsafeBufferPointer(rebasing: bytes[from..<to])
            guard let s = String(validating: slice, as: UTF8.self) else {
                throw failure("a string is not valid UTF-8", at: open)
            }
            return s
        }
    }
}
