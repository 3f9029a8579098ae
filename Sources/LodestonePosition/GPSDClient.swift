#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore
import LodestoneNetwork

/// A client of gpsd's JSON protocol over TCP, driven by its owner's loop.
///
/// Connects without blocking, sends `?WATCH={"enable":true,"json":true};`
/// and reads TPV reports. When gpsd is not there or the connection drops it
/// tries again after 0.5 s, doubling up to 30 s; a connection that delivered
/// data resets the delay. Why the JSON protocol rather than libgps: gpsd's
/// JSON is stable across releases and needs no library of a matching version.
///
/// An event loop puts ``fd`` in its poll set (``wantsWritable`` while
/// connecting) and calls ``handle(events:now:)``; a sample loop calls
/// ``GPSDPositionSource/poll(now:)``, which does the same without waiting.
public final class GPSDClient {
    enum State {
        case waiting(until: Double)
        case connecting(fd: Int32)
        case connected(fd: Int32)
    }

    public let endpoint: Endpoint
    private(set) var state: State = .waiting(until: 0)
    private var input = LineAssembler(limit: 1 << 16)
    private var buffer = [UInt8](repeating: 0, count: 16384)
    private var backoff = Backoff.first
    private var receivedData = false
    /// The link's problem, nil when connected (for the true-heading reason).
    public private(set) var problem: String? = "not connected yet"

    enum Backoff {
        static let first = 0.5
        static let maximum = 30.0
    }

    public init(endpoint: Endpoint) {
        self.endpoint = endpoint
    }

    /// The socket to poll, while there is one.
    public var fd: Int32? {
        switch state {
        case .connecting(let fd), .connected(let fd): return fd
        case .waiting: return nil
        }
    }

    /// Poll for writability (the connection is being made) rather than input.
    public var wantsWritable: Bool {
        if case .connecting = state { return true }
        return false
    }

    /// When the next connection attempt is due, while waiting for one.
    public var nextAttempt: Double? {
        if case .waiting(let t) = state { return t }
        return nil
    }

    public func close() {
        if let fd { Glibc.close(fd) }
        state = .waiting(until: .infinity)
    }

    /// Starts a connection when the back-off has passed; returns link changes.
    public func tick(now: Double) -> [PositionUpdate] {
        guard case .waiting(let until) = state, now >= until else { return [] }
        switch Sockets.connectTCP(endpoint) {
        case .success(let (fd, connected)):
            state = .connecting(fd: fd)
            return connected ? didConnect(fd, now: now) : []
        case .failure(let e):
            return retry(now: now, why: e.description)
        }
    }

    private func retry(now: Double, why: String) -> [PositionUpdate] {
        if let fd { Glibc.close(fd) }
        if receivedData { backoff = Backoff.first }
        receivedData = false
        let changed = problem != why
        problem = why
        state = .waiting(until: now + backoff)
        backoff = min(backoff * 2, Backoff.maximum)
        return changed ? [.link(problem: why)] : []
    }

    private func didConnect(_ fd: Int32, now: Double) -> [PositionUpdate] {
        state = .connected(fd: fd)
        input = LineAssembler(limit: 1 << 16)
        let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        let sent = watch.withUnsafeBytes { Sockets.send(fd, $0) }
        guard sent == watch.count else { return retry(now: now, why: "could not send ?WATCH") }
        problem = nil
        return [.link(problem: nil)]
    }

    /// Handles poll events on the socket: finishes a connection, reads reports.
    public func handle(events: Int16, now: Double) -> [PositionUpdate] {
        switch state {
        case .connecting(let fd):
            if let error = Sockets.connectionError(fd) { return retry(now: now, why: error) }
            return didConnect(fd, now: now)
        case .connected(let fd):
            return read(fd, now: now)
        case .waiting:
            return []
        }
    }

    private func read(_ fd: Int32, now: Double) -> [PositionUpdate] {
        var updates: [PositionUpdate] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                receivedData = true
                buffer.withUnsafeBytes { raw in
                    input.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { item, line in
                        guard item == .line, let r = GPSDReport.parse(line, receivedAt: Self.wallClock()) else { return }
                        switch r {
                        case .fix(let fix): updates.append(.fix(fix))
                        case .noFix: updates.append(.fixLost)
                        case .error(let message): updates.append(.message("gpsd at \(endpoint) says: \(PrintableText.excerpt(message))"))
                        case .version, .other: break
                        }
                    }
                }
                if n < buffer.count { return updates }
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return updates }
            return updates + retry(now: now, why: n == 0 ? "gpsd closed the connection" : Sockets.errorText(errno))
        }
    }
}

extension GPSDClient {
    /// Unix seconds now: the time of a fix that came without one.
    static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// gpsd as a ``PositionSource`` for a loop that does not poll sockets itself:
/// each ``poll(now:)`` tries a due connection and reads what is waiting, never blocking.
public struct GPSDPositionSource: PositionSource {
    public let client: GPSDClient

    public init(endpoint: Endpoint) {
        client = GPSDClient(endpoint: endpoint)
    }

    public var name: String { "gpsd at \(client.endpoint)" }

    public mutating func poll(now: Double) -> [PositionUpdate] {
        var updates = client.tick(now: now)
        guard let fd = client.fd else { return updates }
        var p = pollfd(fd: fd, events: Int16(client.wantsWritable ? POLLOUT : POLLIN), revents: 0)
        if Glibc.poll(&p, 1, 0) > 0 { updates += client.handle(events: p.revents, now: now) }
        return updates
    }

    public mutating func close() {
        client.close()
    }
}
