import LodestoneNetwork
import LodestoneSession

/// Why the service could not start or had to stop: the session's error, whose kind
/// decides the exit code (the table of every command).
public typealias ServiceError = SessionError

extension SessionError {
    /// A socket that cannot be opened.
    init(_ error: SocketError) {
        self.init(.inaccessible, error.description)
    }
}

extension WakePipe {
    /// A wake pipe, or the service's error when the process has no descriptors left.
    static func make() throws(ServiceError) -> WakePipe {
        do {
            return try WakePipe()
        } catch {
            throw ServiceError(error)
        }
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
