#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore
import LodestoneLogs

/// The connected protocol clients: adding and finding them, replies and
/// broadcasts, polls that wait for a heading, and writing what slow clients
/// left queued. Touched only under the hub's lock.
final class ClientRegistry {
    private(set) var clients: [ClientSession] = []
    private var nextClientID = 1
    var limits: ServiceConfiguration.Limits
    /// The headingFilter of a watcher that gives none.
    var defaultHeadingFilter: Double
    /// Encodes replies and broadcasts (one at a time, under the lock).
    private let replyLine = JSONLineBuilder(capacity: 4096)
    /// The broadcast events whose condition still holds.
    private(set) var inForce = EventsInForce()
    /// The live view, which shows the events too; nil when it is off.
    var liveView: LiveViewPublisher?

    /// Longest a `?POLL` waits for a heading, seconds.
    static let pollTimeout = 2.0

    init(limits: ServiceConfiguration.Limits, defaultHeadingFilter: Double) {
        self.limits = limits
        self.defaultHeadingFilter = defaultHeadingFilter
    }

    var count: Int { clients.count }

    private var steeringRequests = 0

    /// A number larger than every earlier one, for ``ClientSession/steeringOrder``.
    func nextSteeringOrder() -> Int {
        steeringRequests += 1
        return steeringRequests
    }

    /// Clients that came through listeners of `origin`, less those already closing: a
    /// peer that hung up before it was accepted holds no slot while it waits to be removed.
    func count(from origin: ClientOrigin) -> Int {
        clients.reduce(0) { $0 + ($1.origin == origin && !$1.closing ? 1 : 0) }
    }

    /// Whether a client of `origin` may be accepted within `limit`. At the limit, the
    /// clients whose peer has closed its end (POLLHUP), which the loop may not have read
    /// yet, are marked closing first: they hold no slot. A peer that only shut down its
    /// writing (a half-closed client still reading) keeps its slot.
    func hasSlot(from origin: ClientOrigin, limit: Int) -> Bool {
        guard count(from: origin) >= limit else { return true }
        for c in clients where c.origin == origin && !c.closing {
            var p = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 0) == 1, p.revents & Int16(POLLHUP | POLLERR) != 0 { c.closing = true }
        }
        return count(from: origin) < limit
    }

    func add(fd: Int32, peer: String, origin: ClientOrigin, now: Double) -> ClientSession {
        let c = ClientSession(id: nextClientID, fd: fd, peer: peer, origin: origin, limits: limits, headingFilter: defaultHeadingFilter, now: now)
        nextClientID += 1
        clients.append(c)
        return c
    }

    func remove(_ c: ClientSession) {
        clients.removeAll { $0 === c }
    }

    func removeAll() {
        clients.removeAll()
    }

    func client(fd: Int32) -> ClientSession? {
        clients.first { $0.fd == fd }
    }

    /// Whether any client needs the sensors read: a watcher or a pending poll.
    var wantSamples: Bool {
        clients.contains { !$0.closing && (($0.watching && $0.location.headings) || $0.pollDeadline != nil) }
    }

    var watcherCount: Int { clients.reduce(0) { $0 + ($1.watching && !$1.closing ? 1 : 0) } }

    /// Encodes one reply with `body` and sends it to `c` (queued behind anything pending).
    func reply(_ c: ClientSession, _ body: (JSONLineBuilder) -> Void) {
        replyLine.removeAll()
        body(replyLine)
        _ = c.send(replyLine.bytes)
    }

    /// Sends an event to every watching client (not to gpsd clients: gpsd has no EVENT)
    /// and to the live view.
    func broadcast(_ event: ServiceEvent, wall: Double) {
        inForce.record(event, time: wall)
        replyLine.removeAll()
        ProtocolMessages.event(replyLine, event, time: wall)
        for c in clients where c.watching && c.gpsd == nil { _ = c.send(replyLine.bytes) }
        liveView?.publishEvent(replyLine.bytes, inForce: inForce)
    }

    /// Sends the POLL answer (with the HEADING in `headingLine` when given) and clears the poll.
    func answerPoll(_ c: ClientSession, wall: Double, headingLine: UnsafeBufferPointer<UInt8>?, settled: Bool) {
        replyLine.removeAll()
        ProtocolMessages.poll(replyLine, time: wall, active: watcherCount, headingLine: headingLine, settled: settled)
        c.pollDeadline = nil
        _ = c.send(replyLine.bytes)
    }

    /// Answers polls that waited too long: with the latest heading, unsettled, when `answer`
    /// has one, else an ERROR saying why.
    func expirePolls(now: Double, why: String?, answer: (ClientSession) -> Bool) {
        for c in clients where c.pollDeadline.map({ $0 <= now }) == true {
            if answer(c) { continue }
            c.pollDeadline = nil
            let text = why ?? "the sensors gave no heading in \(Int(Self.pollTimeout)) s"
            reply(c) { ProtocolMessages.error($0, "?POLL: no heading: \(text)") }
        }
    }

    var earliestPollDeadline: Double? {
        clients.compactMap(\.pollDeadline).min()
    }

    /// Writes a client's queued output; once it is all out, tells the client how many lines it lost.
    /// Returns false when the client failed.
    func flush(_ c: ClientSession, wall: Double) -> Bool {
        guard c.flush() else { return false }
        if c.outbox.isEmpty, c.outbox.droppedLines > 0 {
            let n = c.outbox.takeDroppedCount()
            if c.gpsd == nil { reply(c) { ProtocolMessages.dropped($0, count: n, limit: limits.clientQueueBytes, time: wall) } }
        }
        return !c.closing
    }

    /// Writes the lines gathered for each client. True when the event loop must look
    /// at a client (output left pending, or a failed socket).
    func sendGathered(wall: Double) -> Bool {
        var wake = false
        for c in clients where c.gathered {
            c.gathered = false
            if !flush(c, wall: wall) || !c.outbox.isEmpty { wake = true }
        }
        return wake
    }
}
