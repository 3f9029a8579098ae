#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe that any thread writes a byte to, to wake a thread blocked in `poll`.
/// Both ends are non-blocking: a full pipe already means "wake up".
public final class Wakeup: Sendable {
    public let readFD: Int32
    let writeFD: Int32

    /// Nil when the process has no descriptors left.
    public init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    public func drain() {
        var junk = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &junk, { read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// Seconds on CLOCK_MONOTONIC (the clock sd-bus gives its timeouts in).
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
