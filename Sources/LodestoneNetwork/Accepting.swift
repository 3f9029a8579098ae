#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one `accept` on a listener gave.
public enum AcceptOutcome: Equatable, Sendable {
    case connection(fd: Int32, peer: String)
    /// Nobody waits (EAGAIN).
    case none
    /// The process or the system is out of descriptors or memory (EMFILE, ENFILE,
    /// ENOBUFS, ENOMEM): the connection stays in the backlog and the listener stays
    /// readable, so accepting again at once would spin.
    case exhausted(errno: Int32)
    /// Any other failure of the listener.
    case failed(errno: Int32)
}

extension Sockets {
    /// Accepts one connection (non-blocking, close-on-exec), saying why not when it cannot.
    /// A connection that was reset while it waited is skipped.
    public static func acceptConnection(_ listener: Int32) -> AcceptOutcome {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            if fd >= 0 {
                prepare(fd)
                return .connection(fd: fd, peer: describe(storage))
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return .none
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted(errno: errno)
            case let e: return .failed(errno: e)
            }
        }
    }
}

/// A file's identity (device and inode), to recognise a file this process made.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of what `path` names itself (a symbolic link is not followed), and whether it is a socket.
    public static func of(_ path: String) -> (identity: FileIdentity, isSocket: Bool)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)), st.st_mode & S_IFMT == S_IFSOCK)
    }
}
