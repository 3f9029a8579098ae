#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Buffered writing to a file descriptor, in large chunks.
final class OutputStream {
    let fd: Int32
    private var buffer: [UInt8] = []
    private let limit: Int

    init(fd: Int32, bufferSize: Int = 1 << 16) {
        self.fd = fd
        limit = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    deinit { flush() }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                break // The reader went away (EPIPE): drop the rest.
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

enum Console {
    /// Writes `lodestone: message` to standard error, unbuffered.
    static func error(_ message: String) {
        let text = "lodestone: \(message)\n"
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }

    /// Writes a line to standard error without a prefix.
    static func note(_ message: String) {
        let text = message + "\n"
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
