#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file line by line through one fixed buffer: constant memory for
/// any file size, no allocation per line.
///
/// Every line returned is followed in the buffer by a byte that is not a digit: its
/// terminator, or a newline put after the last line of a file that does not end with
/// one. A number at the end of a line can be read up to that byte without a test for
/// the end of the line at every digit.
final class LineReader {
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// `maximumLineLength` bytes of text, and one for the newline after the last line.
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    // Hot per-line state: dynamic exclusivity checks would cost more than the work.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEOF = false
    /// Longest accepted line in bytes.
    let maximumLineLength: Int
    /// 1-based number of the line last returned.
    @exclusivity(unchecked) private(set) var lineNumber = 0

    enum Failure: Error {
        case lineTooLong
        case readFailed(Int32)
        case openFailed(Int32)
    }

    /// Opens `path`; `"-"` reads standard input.
    init(path: String, bufferSize: Int = 1 << 20) throws(Failure) {
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            let d = open(path, O_RDONLY | O_CLOEXEC)
            guard d >= 0 else { throw .openFailed(errno) }
            var info = stat()
            if fstat(d, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(d)
                throw .openFailed(EISDIR)
            }
            fd = d
            ownsDescriptor = true
        }
        buffer = .allocate(capacity: bufferSize + 1)
        maximumLineLength = bufferSize
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// The next line without its terminator (`\n` or `\r\n`), or nil at the end.
    /// The bytes, and the one after them, stay valid until the next call.
    func nextLine() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if let newline = findNewline() {
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[start..<lineEnd])
                start = newline + 1
                lineNumber += 1
                return line
            }
            if atEOF {
                guard start < end else { return nil }
                var lineEnd = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                buffer[end] = 0x0A
                let line = UnsafeBufferPointer(rebasing: buffer[start..<lineEnd])
                start = end
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    private func findNewline() -> Int? {
        guard start < end, let base = buffer.baseAddress else { return nil }
        guard let p = memchr(base + start, 0x0A, end - start) else { return nil }
        return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
    }

    private func fill() throws(Failure) {
        if start > 0 {
            let remaining = end - start
            if remaining > 0, let base = buffer.baseAddress { memmove(base, base + start, remaining) }
            start = 0
            end = remaining
        }
        guard end < maximumLineLength else { throw .lineTooLong }
        let n = buffer.baseAddress.map { read(fd, $0 + end, maximumLineLength - end) } ?? 0
        if n < 0 {
            if errno == EINTR { return }
            throw .readFailed(errno)
        }
        if n == 0 { atEOF = true }
        end += n
    }
}

/// A human-readable reason for an errno value.
func describeErrno(_ code: Int32) -> String {
    String(cString: strerror(code))
}

extension LineReader.Failure {
    /// The reason, with a hint for the usual mistakes.
    var explanation: String {
        switch self {
        case .lineTooLong: return "line too long"
        case .readFailed(let code): return describeErrno(code)
        case .openFailed(let code):
            let hint = code == ENOENT ? " (check the path)" : code == EACCES ? " (check the file's permissions)" : ""
            return describeErrno(code) + hint
        }
    }
}
