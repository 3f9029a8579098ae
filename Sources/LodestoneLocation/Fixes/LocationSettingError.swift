/// A setting of a location component out of its range, named as in the settings struct.
public struct LocationSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var value: Double
    /// The allowed range, in words.
    public var allowed: String

    public init(name: String, value: Double, allowed: String) {
        self.name = name
        self.value = value
        self.allowed = allowed
    }

    public var description: String { "setting \(name) = \(value) is out of range; allowed: \(allowed)" }

    /// Throws unless `value` is not NaN and passes `isValid`.
    static func check(_ name: String, _ value: Double, allowed: String,
                      _ isValid: (Double) -> Bool) throws(LocationSettingError) {
        guard !value.isNaN, isValid(value) else {
            throw LocationSettingError(name: name, value: value, allowed: allowed)
        }
    }
}
