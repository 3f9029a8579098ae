import LodestoneCommandLine
import LodestoneJSON

/// The members of one JSON object of a config file, checked against the keys it
/// may have: an unknown key is an error (a typo must not be ignored silently),
/// with a "did you mean", and every error names its key.
public struct ConfigurationKeys {
    public let members: [String: JSONValue]
    /// `""` for the root, else the path of the object, e.g. `source`.
    public let path: String

    public init(_ value: JSONValue, path: String, known: [String]) throws(ConfigurationError) {
        guard let o = value.objectValue else {
            throw ConfigurationError(key: path.isEmpty ? "(file)" : path, "must be a JSON object, not \(value.typeName)")
        }
        self.path = path
        members = o
        for key in o.keys.sorted() where !known.contains(key) {
            let hint = ClosestName.closest(to: key, among: known).map { "; did you mean \($0)?" } ?? ""
            throw ConfigurationError(key: name(key), "unknown key\(hint) (known: \(known.joined(separator: ", ")))")
        }
    }

    public subscript(key: String) -> JSONValue? { members[key] }

    public func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func refuse(_ keys: [String], because reason: String) throws(ConfigurationError) {
        if let k = keys.first(where: { members[$0] != nil }) {
            throw ConfigurationError(key: name(k), "does not apply here: \(reason)")
        }
    }

    public func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let v = members[key] else { return nil }
        guard let s = v.stringValue else { throw ConfigurationError(key: name(key), "must be a string, not \(v.typeName)") }
        return s
    }

    /// A string, or nil for JSON null (or absence).
    public func optionalString(_ key: String) throws(ConfigurationError) -> String? {
        if case .null? = members[key] { return nil }
        return try string(key)
    }

    public func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let v = members[key] else { return nil }
        guard let n = v.numberValue else { throw ConfigurationError(key: name(key), "must be a number, not \(v.typeName)") }
        return n
    }

    public func integer(_ key: String) throws(ConfigurationError) -> Int? {
        guard let n = try number(key) else { return nil }
        guard n == n.rounded(), abs(n) < 1e15 else { throw ConfigurationError(key: name(key), "must be a whole number, not \(n)") }
        return Int(n)
    }

    public func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let v = members[key] else { return nil }
        guard let b = v.boolValue else { throw ConfigurationError(key: name(key), "must be true or false, not \(v.typeName)") }
        return b
    }
}
