import LodestoneCore
import LodestoneNetwork
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The live view: one page (`GET /`) and its Server-Sent Events stream (`GET /events`),
/// HTTP/1.1 on a thread of its own.
///
/// Server-Sent Events rather than WebSocket: the view only listens, SSE is plain HTTP
/// (`text/event-stream`, readable with curl), the browser's `EventSource` reconnects by
/// itself, and there is no handshake or frame masking to implement. Each event is one
/// JSON object of the client protocol (PROTOCOL.md), so the page reads what any client reads.
///
/// The producer never waits: ``publish(_:)`` appends to a ring of recent events (O(1));
/// each viewer reads it at its own pace and skips what it missed when it falls behind. A
/// request head must be complete and small within a time limit, connections are capped,
/// dead streams are closed, and on loopback only loopback Host names are served.
public final class LiveViewServer: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    public let settings: HTTPServerSettings
    /// The port listened on (the one asked for, or the one the system chose for 0).
    public let port: UInt16
    private let feed: LiveFeed
    private let page: [UInt8]
    private let log: Log
    private let listeners: [Int32]
    private let wakeup: WakePipe
    private let ring: Locked<EventRing>
    private let state = Locked(SharedState())
    private let allowedHosts: Set<String>

    // The server thread's own.
    private var connections: [HTTPConnection] = []
    private var reportedViewers = 0
    private var refusedSinceLog = 0
    private var lastRefusalLog = -Double.infinity
    private var thread: BackgroundThread?

    struct SharedState {
        var stopping = false
        var viewers = 0
    }

    public init(settings: HTTPServerSettings, feed: LiveFeed, page: [UInt8] = Array(LiveViewPage.html.utf8),
                log: @escaping Log = { _ in }) throws(HTTPServerError) {
        self.settings = settings
        self.feed = feed
        self.page = page
        self.log = log
        do {
            wakeup = try WakePipe()
            listeners = try Sockets.listenTCP(settings.listen, backlog: 32)
        } catch {
            throw HTTPServerError("live view: \(error); choose another --http address")
        }
        port = listeners.first.flatMap(Sockets.localPort) ?? settings.listen.port
        ring = Locked(EventRing(capacity: settings.bufferedEvents))
        allowedHosts = Self.hostNames(settings, port: port)
        if !settings.listen.isLoopback {
            log("live view on \(Endpoint(host: settings.listen.host, port: port)), which is not loopback: anyone who can reach it sees the headings and the position")
        }
    }

    deinit {
        stop()
        for l in listeners { close(l) }
    }

    public func start() throws(HTTPServerError) {
        guard thread == nil else { return }
        switch BackgroundThread.start({ [self] in run() }) {
        case .success(let t): thread = t
        case .failure(let e): throw HTTPServerError("cannot start the live view's thread: \(e.description)")
        }
    }

    /// Closes every connection and stops the thread; the feed hears of 0 viewers.
    public func stop() {
        let first = state.withLock { s in
            defer { s.stopping = true }
            return !s.stopping
        }
        guard first, let thread else { return }
        wakeup.signal()
        thread.join()
        self.thread = nil
    }

    /// Sends one JSON object (no newline) to every viewer; any thread, never waits.
    public func publish(_ json: String) {
        let event = HTTPResponse.event(json)
        ring.withLock { $0.append(event) }
        if state.withLock({ $0.viewers > 0 }) { wakeup.signal() }
    }

    /// Open streams now.
    public var viewerCount: Int { state.withLock { $0.viewers } }

    // MARK: The server thread

    private func run() {
        while !state.withLock({ $0.stopping }) {
            let now = SystemTime.monotonic()
            var fds = [pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0)]
            fds += listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            for c in connections {
                var events = Int16(POLLIN)
                if c.hasPendingOutput { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: c.fd, events: events, revents: 0))
            }
            _ = poll(&fds, nfds_t(fds.count), pollTimeout(now: now))
            if fds[0].revents != 0 { wakeup.drain() }
            for p in fds[1...listeners.count] where p.revents != 0 { acceptAll(p.fd, now: SystemTime.monotonic()) }
            for p in fds.dropFirst(1 + listeners.count) where p.revents != 0 {
                guard let i = connections.firstIndex(where: { $0.fd == p.fd }) else { continue }
                if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readable(i, now: SystemTime.monotonic()) }
            }
            let later = SystemTime.monotonic()
            for i in connections.indices { writeStreamAndReply(i, now: later) }
            expire(now: later)
            closeFinished()
            reportViewers()
        }
        for c in connections { close(c.fd) }
        connections = []
        reportViewers()
    }

    private func pollTimeout(now: Double) -> Int32 {
        var deadline = now + 1
        for c in connections {
            switch c.phase {
            case .request: deadline = min(deadline, c.opened + settings.requestTimeout)
            case .stream: deadline = min(deadline, c.lastWrite + settings.heartbeatInterval)
            case .reply: break
            }
        }
        return Int32(max(0, ((deadline - now) * 1000).rounded(.up)))
    }

    private func acceptAll(_ listener: Int32, now: Double) {
        while let (fd, _) = Sockets.accept(listener) {
            guard connections.count < settings.maxClients else {
                let refusal = HTTPResponse.error(503, "Service Unavailable", "too many live view clients (\(settings.maxClients)); try again later",
                                                 extra: "Retry-After: 5\r\n")
                _ = refusal.withUnsafeBytes { Sockets.send(fd, $0) }
                close(fd)
                noteRefusal(now: now)
                continue
            }
            connections.append(HTTPConnection(fd: fd, now: now))
        }
    }

    private func noteRefusal(now: Double) {
        refusedSinceLog += 1
        guard now - lastRefusalLog >= 10 else { return }
        log("live view: refused \(refusedSinceLog) connection(s): \(settings.maxClients) clients already")
        refusedSinceLog = 0
        lastRefusalLog = now
    }

    private func readable(_ i: Int, now: Double) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(connections[i].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
            connections[i].phase = .reply
            connections[i].setOutput([]) // the peer went away: close
            return
        }
        guard n > 0, connections[i].phase == .request else { return } // a stream's or a reply's input is ignored
        connections[i].input += buffer[0..<n]
        if let end = HTTPRequest.headEnd(connections[i].input) {
            respond(i, to: connections[i].input[0..<end], now: now)
        } else if connections[i].input.count > settings.maxRequestBytes {
            reply(i, HTTPResponse.error(431, "Request Header Fields Too Large", "the request head is larger than \(settings.maxRequestBytes) bytes"))
        }
    }

    private func respond(_ i: Int, to head: ArraySlice<UInt8>, now: Double) {
        guard head.count <= settings.maxRequestBytes else {
            return reply(i, HTTPResponse.error(431, "Request Header Fields Too Large", "the request head is larger than \(settings.maxRequestBytes) bytes"))
        }
        let request: HTTPRequest
        switch HTTPRequest.parse(head) {
        case .success(let r): request = r
        case .failure(.unsupportedVersion):
            return reply(i, HTTPResponse.error(505, "HTTP Version Not Supported", "only HTTP/1.1 and HTTP/1.0"))
        case .failure(.malformed(let why)):
            return reply(i, HTTPResponse.error(400, "Bad Request", why))
        }
        guard let host = request.host, allowedHosts.isEmpty || allowedHosts.contains(host.lowercased()) else {
            return reply(i, HTTPResponse.error(421, "Misdirected Request", "this live view answers to \(allowedHosts.sorted().joined(separator: ", ")) only (http.allowedHosts adds names)"))
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return reply(i, HTTPResponse.error(405, "Method Not Allowed", "the live view only reads", extra: "Allow: GET, HEAD\r\n"))
        }
        switch request.path {
        case "/", "/index.html":
            reply(i, HTTPResponse.page(page, includeBody: request.method == "GET"))
        case "/events" where request.method == "GET":
            openStream(i, now: now)
        default:
            reply(i, HTTPResponse.error(404, "Not Found", "the live view has / and /events"))
        }
    }

    private func reply(_ i: Int, _ bytes: [UInt8]) {
        connections[i].phase = .reply
        connections[i].setOutput(bytes)
    }

    private func openStream(_ i: Int, now: Double) {
        connections[i].phase = .stream
        connections[i].cursor = ring.withLock { $0.next }
        var bytes = HTTPResponse.streamHead
        for json in feed.snapshot() { bytes += HTTPResponse.event(json) }
        connections[i].setOutput(bytes)
        connections[i].lastProgress = now
        reportViewers()
    }

    /// Sends what each connection has until its socket is full; a stream refills from the
    /// ring each time its last batch is out.
    private func writeStreamAndReply(_ i: Int, now: Double) {
        while true {
            if connections[i].phase == .stream, !connections[i].hasPendingOutput { refill(i, now: now) }
            guard connections[i].hasPendingOutput else { return }
            let c = connections[i]
            let n = c.output[c.written...].withUnsafeBytes { Sockets.send(c.fd, $0) }
            if n < 0 {
                connections[i].phase = .reply
                connections[i].setOutput([])
                return
            }
            guard n > 0 else { return } // full: POLLOUT brings us back
            connections[i].written += n
            connections[i].lastProgress = now
            connections[i].lastWrite = now
        }
    }

    private func refill(_ i: Int, now: Double) {
        var bytes: [UInt8] = []
        var cursor = connections[i].cursor
        var skipped: UInt64 = 0
        ring.withLock { r in
            if cursor < r.first {
                skipped = r.first - cursor
                cursor = r.first
            }
            while cursor < r.next, bytes.count < 65536, let event = r.event(cursor) {
                bytes += event
                cursor += 1
            }
        }
        if skipped > 0 {
            bytes = HTTPResponse.event(LiveViewMessages.linesDropped(Int(skipped), limit: settings.bufferedEvents)) + bytes
        }
        if bytes.isEmpty, now - connections[i].lastWrite >= settings.heartbeatInterval { bytes = HTTPResponse.heartbeat }
        connections[i].cursor = cursor
        if bytes.isEmpty {
            connections[i].lastProgress = now // nothing to send is not a stall
        } else {
            connections[i].setOutput(bytes)
        }
    }

    private func expire(now: Double) {
        for i in connections.indices {
            switch connections[i].phase {
            case .request where now - connections[i].opened > settings.requestTimeout:
                reply(i, HTTPResponse.error(408, "Request Timeout", "the request head took longer than \(settings.requestTimeout) s"))
            case .stream where now - connections[i].lastProgress > settings.stallTimeout:
                log("live view: closing a stream that took nothing for \(Int(settings.stallTimeout)) s")
                connections[i].phase = .reply
                connections[i].setOutput([])
            default: break
            }
        }
    }

    /// Closes replies that are written (or failed); streams stay.
    private func closeFinished() {
        connections.removeAll { c in
            guard c.phase == .reply, !c.hasPendingOutput else { return false }
            shutdown(c.fd, Int32(SHUT_WR))
            close(c.fd)
            return true
        }
    }

    private func reportViewers() {
        let viewers = connections.filter { $0.phase == .stream }.count
        state.withLock { $0.viewers = viewers }
        guard viewers != reportedViewers else { return }
        reportedViewers = viewers
        feed.viewersChanged(viewers)
    }

    /// Host header values served: the listen address and, on loopback, the loopback names.
    static func hostNames(_ s: HTTPServerSettings, port: UInt16) -> Set<String> {
        guard s.listen.isLoopback || !s.allowedHosts.isEmpty else { return [] }
        var names = s.allowedHosts.map { $0.lowercased() }
        let host = s.listen.host
        names.append(host.contains(":") ? "[\(host)]" : host)
        if s.listen.isLoopback { names += ["localhost", "127.0.0.1", "[::1]"] }
        return Set(names.flatMap { [$0, "\($0):\(port)"] })
    }
}
