/// A bad configuration value: names the key (a path such as `position.lat`),
/// says what is wrong and what would be accepted.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the value came from: a config file path or "command line".
    public var origin: String?
    /// The key, e.g. `nmea.rate`, or the command-line option, e.g. `--nmea-rate`.
    public var key: String
    public var message: String
    /// The file could not be read at all (exit code 3), rather than holding a bad value (1).
    public var isAccessProblem: Bool

    public init(key: String, _ message: String, origin: String? = nil, isAccessProblem: Bool = false) {
        self.key = key
        self.message = message
        self.origin = origin
        self.isAccessProblem = isAccessProblem
    }

    public var description: String {
        (origin.map { "\($0): " } ?? "") + "\(key): \(message)"
    }
}
