/// A bad configuration value: names the key (a path such as `position.lat`),
/// says what is wrong and what would be accepted.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the value came from: a config file path or "command line".
    public var origin: String?
    /// The key, e.g. `nmea.rate`, or the command-line option, e.g. `--nmea-rate`.
    public var key: String
    public var message: String

    public init(key: String, _ message: String, origin: String? = nil) {
        self.key = key
        self.message = message
        self.origin = origin
    }

    public var description: String {
        (origin.map { "\($0): " } ?? "") + "\(key): \(message)"
    }
}
