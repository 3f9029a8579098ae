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
    /// A write failed (the reader went away: EPIPE); later output is dropped.
    private(set) var failed = false

    init(fd: Int32, bufferSize: Int = 1 << 16) {
        self.fd = fd
        limit = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    deinit { flush() }

    /// Writes `bytes` straight to the descriptor (after anything buffered).
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        flush()
        writeFully(bytes)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBufferPointer { writeFully($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeFully(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                failed = true
                return // The reader went away (EPIPE): drop the rest.
            }
            offset += n
        }
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
