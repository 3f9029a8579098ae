#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole small file (a profile, a config file, a region set, a position log):
/// the reading half of ``AtomicFile``. Only a regular file is read, and only up to a
/// size limit, so that a wrong path (a FIFO, a device, a huge file) fails at once with
/// a message instead of blocking or filling the memory.
public enum FileBytes {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `errno` of the open or read that failed.
        case cannotRead(Int32)
        /// More than `limit` bytes: at least `bytes`.
        case tooLarge(bytes: Int, limit: Int)
        /// Not a regular file: what it is instead ("a FIFO", "a directory", …).
        case notAFile(String)

        public var description: String {
            switch self {
            case .cannotRead(let code): return String(cString: strerror(code))
            case .tooLarge(_, let limit): return "larger than \(limit) bytes; is it the right file?"
            case .notAFile(let kind): return "not a regular file (\(kind))"
            }
        }

        /// The file is not there (as opposed to there but unreadable).
        public var isMissing: Bool { self == .cannotRead(ENOENT) }
    }

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotRead(errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .cannotRead(errno) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .notAFile(kind(st.st_mode)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= limit else { throw .tooLarge(bytes: bytes.count, limit: limit) }
        }
    }

    /// What a file that is not a regular one is, for messages.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}
