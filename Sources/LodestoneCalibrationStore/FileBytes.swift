#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole small file (a region set, a position log): the reading half of
/// ``AtomicFile``, with a size limit so that a wrong path (a device, a huge
/// file) fails with a message instead of filling the memory.
public enum FileBytes {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `errno` of the open or read that failed.
        case cannotRead(Int32)
        /// More than `limit` bytes: at least `bytes`.
        case tooLarge(bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .cannotRead(let code): return String(cString: strerror(code))
            case .tooLarge(_, let limit): return "larger than \(limit) bytes; is it the right file?"
            }
        }

        /// The file is not there (as opposed to there but unreadable).
        public var isMissing: Bool { self == .cannotRead(ENOENT) }
    }

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotRead(errno) }
        defer { close(fd) }
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
}
