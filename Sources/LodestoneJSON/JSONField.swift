/// A field of a JSON document being read into a typed value, with its path
/// (`parameters.matrix[1][2]`), so that every error names the field.
///
/// The value is nil when the field is absent. Required reads (``string()``,
/// ``number(nonFiniteStrings:)``…) refuse an absent field or JSON null; optional
/// reads return nil for both, as Swift's `Decodable` does with `decodeIfPresent`.
/// Unknown members are ignored: a schema checks its own version first.
public struct JSONField: Sendable {
    public let value: JSONValue?
    /// Dotted member names and `[index]`; empty for the document itself.
    public let path: String

    /// The whole document.
    public init(_ document: JSONValue) {
        value = document
        path = ""
    }

    init(_ value: JSONValue?, path: String) {
        self.value = value
        self.path = path
    }

    /// The member `key` (absent or not) of this field, which must be an object.
    public func member(_ key: String) throws(JSONFieldError) -> JSONField {
        let members = try object()
        return JSONField(members[key], path: path.isEmpty ? key : path + "." + key)
    }

    /// True when the field is absent or null.
    public var isAbsent: Bool {
        if let value, value != .null { return false }
        return true
    }

    public func object() throws(JSONFieldError) -> [String: JSONValue] {
        guard case .object(let members) = try present("an object") else { throw mismatch("an object") }
        return members
    }

    /// The elements, each a field with its index in the path.
    public func array() throws(JSONFieldError) -> [JSONField] {
        guard case .array(let items) = try present("an array") else { throw mismatch("an array") }
        return items.enumerated().map { JSONField($0.element, path: path + "[\($0.offset)]") }
    }

    public func string() throws(JSONFieldError) -> String {
        guard case .string(let s) = try present("a string") else { throw mismatch("a string") }
        return s
    }

    public func optionalString() throws(JSONFieldError) -> String? {
        isAbsent ? nil : try string()
    }

    /// A number. With `nonFiniteStrings`, the strings `"nan"`, `"inf"` and `"-inf"`
    /// (which some writers use, as JSON has no such numbers) are read as such, for
    /// validation to refuse with the field's name.
    public func number(nonFiniteStrings: Bool = false) throws(JSONFieldError) -> Double {
        switch try present("a number") {
        case .number(let n): return n
        case .string("nan") where nonFiniteStrings: return .nan
        case .string("inf") where nonFiniteStrings: return .infinity
        case .string("-inf") where nonFiniteStrings: return -.infinity
        default: throw mismatch("a number")
        }
    }

    public func optionalNumber(nonFiniteStrings: Bool = false) throws(JSONFieldError) -> Double? {
        isAbsent ? nil : try number(nonFiniteStrings: nonFiniteStrings)
    }

    /// A whole number that fits an `Int`.
    public func integer() throws(JSONFieldError) -> Int {
        guard case .number(let n) = try present("an integer") else { throw mismatch("an integer") }
        guard n == n.rounded(), abs(n) < 9e15 else {
            throw .wrongType(path: displayPath, expected: "an integer", found: "\(n)")
        }
        return Int(n)
    }

    public func bool() throws(JSONFieldError) -> Bool {
        guard case .bool(let b) = try present("true or false") else { throw mismatch("true or false") }
        return b
    }

    /// One of the string cases of `E`.
    public func oneOf<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(JSONFieldError) -> E where E.RawValue == String {
        let text = try string()
        guard let e = E(rawValue: text) else {
            throw .invalid(path: displayPath, reason: "must be \(E.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
        }
        return e
    }

    /// `path`, or `(top level)` for the document itself.
    public var displayPath: String { path.isEmpty ? "(top level)" : path }

    private func present(_ expected: String) throws(JSONFieldError) -> JSONValue {
        guard let value else { throw .missing(path: displayPath) }
        guard value != .null else { throw .wrongType(path: displayPath, expected: expected, found: "null") }
        return value
    }

    private func mismatch(_ expected: String) -> JSONFieldError {
        .wrongType(path: displayPath, expected: expected, found: value?.typeName ?? "nothing")
    }
}

/// Why a field of a JSON document could not be read; each case names the field.
public enum JSONFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing(path: String)
    /// `expected` and `found` are phrases such as `a number`, `null`.
    case wrongType(path: String, expected: String, found: String)
    case invalid(path: String, reason: String)

    public var path: String {
        switch self {
        case .missing(let p), .wrongType(let p, _, _), .invalid(let p, _): return p
        }
    }

    public var description: String {
        switch self {
        case .missing(let path): return "field \(path) is missing"
        case let .wrongType(path, expected, found): return "field \(path) must be \(expected), not \(found)"
        case let .invalid(path, reason): return "field \(path): \(reason)"
        }
    }
}
