#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A client of gpsd's JSON protocol over TCP, run by the event loop.
///
/// Connects without blocking, sends `?WATCH={"enable":true,"json":true};`
/// and reads TPV reports. When gpsd is not there or the connection drops it
/// tries again after 0.5 s, doubling up to 30 s; a connection that delivered
/// data resets the delay. Why the JSON protocol rather than libgps: see the
/// README ("Position from gpsd").
final class GPSDClient {
    enum State {
        case waiting(until: Double)
        case connecting(fd: Int32)
        case connected(fd: Int32)
    }

    let endpoint: Endpoint
    private(set) var state: State = .waiting(until: 0)
    private var input = LineAssembler(limit: 1 << 16)
    private var buffer = [UInt8](repeating: 0, count: 16384)
    private var backoff = 0.5
    private var receivedData = false
    private let log: ServiceLog
    /// The link's problem, nil when connected (for the true-heading reason).
    private(set) var problem: String? = "not connected yet"

    init(endpoint: Endpoint, log: ServiceLog) {
        self.endpoint = endpoint
        self.log = log
    }

    var fd: Int32? {
        switch state {
        case .connecting(let fd), .connected(let fd): return fd
        case .waiting: return nil
        }
    }

    var wantsWritable: Bool {
        if case .connecting = state { return true }
        return false
    }

    var nextAttempt: Double? {
        if case .waiting(let t) = state { return t }
        return nil
    }

    func close() {
        if let fd { Glibc.close(fd) }
        state = .waiting(until: .infinity)
    }

    /// Starts a connection when the back-off has passed.
    func tick(now: Double) {
        guard case .waiting(let until) = state, now >= until else { return }
        switch Sockets.connectTCP(endpoint) {
        case .success(let (fd, connected)):
            state = .connecting(fd: fd)
            if connected { didConnect(fd) }
        case .failure(let e):
            retry(now: now, why: e.description)
        }
    }

    private func retry(now: Double, why: String) {
        if let fd { Glibc.close(fd) }
        if receivedData { backoff = 0.5 }
        receivedData = false
        let changed = problem != why
        problem = why
        if changed { log.warning("gpsd at \(endpoint): \(why); retrying (back-off up to 30 s)") }
        state = .waiting(until: now + backoff)
        backoff = min(backoff * 2, 30)
    }

    private func didConnect(_ fd: Int32) {
        state = .connected(fd: fd)
        input = LineAssembler(limit: 1 << 16)
        let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        let sent = watch.withUnsafeBytes { Sockets.send(fd, $0) }
        guard sent == watch.count else {
            retry(now: Clock.monotonic(), why: "could not send ?WATCH")
            return
        }
        problem = nil
        log.info("connected to gpsd at \(endpoint)")
    }

    /// Handles poll events on the socket; calls `report` for each line from gpsd.
    func handle(events: Int16, now: Double, report: (GPSDReport) -> Void) {
        switch state {
        case .connecting(let fd):
            if let error = Sockets.connectionError(fd) {
                retry(now: now, why: error)
            } else {
                didConnect(fd)
            }
        case .connected(let fd):
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    receivedData = true
                    buffer.withUnsafeBytes { raw in
                        input.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { item, line in
                            guard item == .line, let r = GPSDReport.parse(line) else { return }
                            if case .error(let message) = r { log.warning("gpsd at \(endpoint) says: \(message)") }
                            report(r)
                        }
                    }
                    if n < buffer.count { return }
                    continue
                }
                if n < 0, errno == EINTR { continue }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
                retry(now: now, why: n == 0 ? "gpsd closed the connection" : Sockets.errorText(errno))
                return
            }
        case .waiting:
            break
        }
    }
}
