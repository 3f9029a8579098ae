#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe one thread writes a byte to so that another, blocked in `poll`, wakes.
/// Both ends are non-blocking: a full pipe already means "wake up".
///
/// Every poll loop of the package uses it: the service's event loop and sample thread,
/// the signal pipe, the live view's and the D-Bus compass's threads.
public final class WakePipe: Sendable {
    public let readFD: Int32
    public let writeFD: Int32

    public init() throws(SocketError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SocketError("cannot create a pipe: \(Sockets.errorText(errno))") }
        readFD = fds[0]
        writeFD = fds[1]
        Sockets.prepare(readFD)
        Sockets.prepare(writeFD)
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    public func signal() {
        var b: UInt8 = 1
        _ = Glibc.write(writeFD, &b, 1)
    }

    public func drain() {
        var junk = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &junk, { Glibc.read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits until signalled or `timeout` seconds passed (nil: no limit); drains. True when signalled.
    @discardableResult
    public func wait(timeout: Double?) -> Bool {
        var p = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
        let ms: Int32 = timeout.map { Int32(max(0, min(3_600_000, ($0 * 1000).rounded(.up)))) } ?? -1
        let n = poll(&p, 1, ms)
        guard n > 0 else { return false } // timed out: nothing to read (saves a read per paced sample)
        drain()
        return true
    }
}
