/// Why a region could not be added, removed or queried.
public enum RegionError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyIdentifier
    /// Longer than ``CircularRegion/maximumIdentifierLength`` bytes of UTF-8.
    case identifierTooLong(String)
    /// Control characters would break log lines and the line-based protocol.
    case identifierHasControlCharacters(String)
    /// A setting-like value of the region out of range: `name`, the value, the allowed range.
    case valueOutOfRange(name: String, value: Double, allowed: String)
    /// Adding one more would exceed the monitor's `maximumRegions`.
    case tooManyRegions(limit: Int)
    case unknownIdentifier(String)

    public var description: String {
        switch self {
        case .emptyIdentifier:
            return "a region needs a non-empty identifier"
        case .identifierTooLong(let id):
            return "region identifier '\(id.prefix(40))…' is longer than \(CircularRegion.maximumIdentifierLength) bytes"
        case .identifierHasControlCharacters(let id):
            return "region identifier \(id.debugDescription) contains control characters"
        case let .valueOutOfRange(name, value, allowed):
            return "region \(name) \(value) is out of range; allowed: \(allowed)"
        case .tooManyRegions(let limit):
            return "at most \(limit) regions can be monitored; remove one first"
        case .unknownIdentifier(let id):
            return "no region with identifier '\(id)' is monitored"
        }
    }
}
