import LodestoneJSON

/// Why a saved region set could not be read or written. Each case names where
/// the fault is (`regions[2].radius`) so the file can be fixed by hand.
public enum RegionSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not JSON at all, or cut short.
    case malformedJSON(String)
    case unsupportedVersion(found: Int, supported: Int)
    /// A field missing or of the wrong type.
    case field(JSONFieldError)
    /// The region at `index` is invalid (`path` names the field).
    case invalidRegion(index: Int, path: String, RegionError)
    /// Two regions share an identifier.
    case duplicateIdentifier(String, indices: [Int])
    case tooManyRegions(count: Int, limit: Int)
    /// The monitor's settings themselves are out of range.
    case settings(LocationSettingError)

    public var description: String {
        switch self {
        case .malformedJSON(let why):
            return "the region file is not valid JSON: \(why)"
        case let .unsupportedVersion(found, supported):
            return "field formatVersion: \(found) is not supported (this version reads \(supported)); was the file written by a newer Lodestone?"
        case .field(let error):
            return error.description
        case let .invalidRegion(_, path, error):
            return "field \(path): \(error)"
        case let .duplicateIdentifier(id, indices):
            return "regions \(indices.map { "regions[\($0)]" }.joined(separator: " and ")) share the identifier '\(id)'; identifiers must be unique"
        case let .tooManyRegions(count, limit):
            return "the file holds \(count) regions, more than the limit of \(limit) (maximumRegions)"
        case .settings(let error):
            return error.description
        }
    }
}
