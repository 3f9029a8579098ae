#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneNetwork

/// The listener a client came through. Each kind has its own client limit, so that
/// network peers can never take the slots of local clients (issue 13: 32 idle TCP
/// connections locked every Unix-socket client out).
enum ClientOrigin: Sendable {
    /// The Unix socket (`limits.maxClients`).
    case unix
    /// The protocol's TCP listeners together (`limits.maxNetworkClients`).
    case network

    func limit(_ l: ServiceConfiguration.Limits) -> Int {
        switch self {
        case .unix: return l.maxClients
        case .network: return l.maxNetworkClients
        }
    }
}

/// The listeners of the client protocol: the Unix socket and the TCP endpoints.
///
/// The Unix socket file is the service's own, recognised by its inode: a reload
/// sets the mode of that file only (never of what a symbolic link put in its place
/// points to), makes the socket again when the file was deleted, and a stop removes
/// the file only while it is still the service's.
final class ProtocolListeners {
    struct Listener {
        let fd: Int32
        let key: String
        let origin: ClientOrigin
        /// The socket file this listener made (Unix socket).
        var file: FileIdentity?

        var path: String? { key.hasPrefix("unix:") ? String(key.dropFirst(5)) : nil }
    }

    private(set) var all: [Listener] = []
    private let log: ServiceLog

    init(log: ServiceLog) {
        self.log = log
    }

    /// TCP first: whoever waits for the Unix socket file to appear finds the TCP
    /// listeners already open.
    static func keys(_ c: ServiceConfiguration) -> [String] {
        c.tcpListeners.map { "tcp:\($0)" } + (c.socketPath.map { ["unix:" + $0] } ?? [])
    }

    /// Opens the listeners `c` asks for that are not open yet, then closes the ones it
    /// no longer names; checks the Unix socket file of one kept. A failure to open leaves
    /// the old set as it was.
    func update(_ c: ServiceConfiguration) throws(ServiceError) {
        let wanted = Self.keys(c)
        var opened: [Listener] = []
        do {
            for key in wanted where !all.contains(where: { $0.key == key }) {
                if key.hasPrefix("unix:") {
                    opened.append(try Self.unix(path: String(key.dropFirst(5)), mode: c.socketMode))
                } else if let e = c.tcpListeners.first(where: { "tcp:\($0)" == key }) {
                    if !e.isLoopback { log.warning("the client protocol listens on \(e), which is not loopback: anyone who can reach it gets headings") }
                    opened += try Sockets.listeningTCP(e).map { Listener(fd: $0, key: key, origin: .network) }
                }
            }
        } catch {
            for l in opened { close(l) }
            throw error
        }
        for l in all where !wanted.contains(l.key) { close(l) }
        all.removeAll { !wanted.contains($0.key) }
        for i in all.indices where all[i].path != nil { recheck(&all[i], mode: c.socketMode) }
        all += opened
        for l in opened { log.info("listening on \(l.path.map { "unix socket \($0)" } ?? l.key)") }
    }

    private static func unix(path: String, mode: UInt32) throws(ServiceError) -> Listener {
        let fd = try Sockets.listeningUnix(path: path, mode: mode)
        return Listener(fd: fd, key: "unix:" + path, origin: .unix, file: FileIdentity.of(path)?.identity)
    }

    /// A kept Unix socket on reload: its file gets the configured mode if it is still the
    /// one this listener made; a missing file is made again; anything else is left alone.
    private func recheck(_ l: inout Listener, mode: UInt32) {
        guard let path = l.path else { return }
        let now = FileIdentity.of(path)
        if let now, now.isSocket, now.identity == l.file {
            if fchmodat(AT_FDCWD, path, mode_t(mode), AT_SYMLINK_NOFOLLOW) != 0 {
                log.warning("cannot set the mode of the socket \(path): \(Sockets.errorText(errno))")
            }
            return
        }
        do {
            let fresh = try Self.unix(path: path, mode: mode)
            Glibc.close(l.fd) // the old socket's file is gone or is another's: nothing to remove
            l = fresh
            log.notice("the socket file \(path) was \(now == nil ? "deleted" : "replaced by a stale socket"); made it again")
        } catch {
            log.error("the socket file \(path) is no longer the service's (\(error)); new clients cannot connect until it is removed and the service reloaded")
        }
    }

    /// Closes a listener and removes its socket file while that is still the one it made.
    func close(_ l: Listener) {
        Glibc.close(l.fd)
        if let path = l.path, let file = l.file, let now = FileIdentity.of(path), now.identity == file {
            unlink(path)
        }
    }

    func closeAll() {
        for l in all { close(l) }
        all = []
    }
}
