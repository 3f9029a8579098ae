/// Why the service could not start or had to stop, with the exit code the CLI uses.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// A bad config file, calibration profile or log (exit 1).
        case badInput
        /// A socket, file or device that cannot be opened (exit 3).
        case inaccessible
        /// A sensor or the service failed while running (exit 4).
        case failure
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
