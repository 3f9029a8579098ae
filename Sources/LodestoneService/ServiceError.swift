import LodestoneNetwork
import LodestoneSession

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

    /// The service's form of a session's error: a usage problem is a bad configuration here.
    public init(_ error: SessionError) {
        switch error.kind {
        case .badInput, .usage: self.init(.badInput, error.description)
        case .inaccessible: self.init(.inaccessible, error.description)
        case .failure: self.init(.failure, error.description)
        }
    }

    /// A socket that cannot be opened.
    init(_ error: SocketError) {
        self.init(.inaccessible, error.description)
    }
}

extension Sockets {
    /// ``Sockets/listenTCP(_:backlog:)`` with the service's error.
    static func listeningTCP(_ endpoint: Endpoint) throws(ServiceError) -> [Int32] {
        do {
            return try listenTCP(endpoint)
        } catch {
            throw ServiceError(error)
        }
    }

    /// ``Sockets/listenUnix(path:mode:backlog:)`` with the service's error.
    static func listeningUnix(path: String, mode: UInt32) throws(ServiceError) -> Int32 {
        do {
            return try listenUnix(path: path, mode: mode)
        } catch {
            throw ServiceError(error)
        }
    }
}
