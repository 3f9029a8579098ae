import LodestoneCore
import LodestoneNetwork

/// One connected protocol client: its socket, what it asked for, and what it
/// has not read yet.
///
/// Touched only under the hub's lock (by the event loop, and by the sample
/// thread when it delivers a heading).
final class ClientSession {
    let id: Int
    let fd: Int32
    let peer: String
    /// The listener it came through, whose client limit it counts against.
    let origin: ClientOrigin
    var outbox: ClientOutbox
    var input: LineAssembler
    /// Streaming HEADING objects (after `?WATCH={"enable":true}`).
    var watching = false
    /// A gpsd client (its `?WATCH` had gpsd's keys): ATT instead of HEADING, no EVENT.
    var gpsd: GPSDWatch?
    var filter: HeadingFilter
    /// The headingFilter this client gave in its last `?WATCH` that had one; nil: the server's default.
    var chosenHeadingFilter: Double?
    /// Steering toward a target (after `?STEER=…`).
    var steering: ClientSteering?
    /// Orders the clients' `?STEER` requests: the live view shows the latest one's advice.
    var steeringOrder = 0
    /// The location half: LOCATION, REGION and TRACK objects, desiredAccuracy, distanceFilter.
    var location = ClientLocation()
    /// Monotonic deadline of an unanswered `?POLL;`; the poll claims the sensors until then.
    var pollDeadline: Double?
    /// The socket failed or the peer closed: the event loop closes it.
    var closing = false
    /// Whether slowness was logged since the last report.
    var loggedSlowness = false
    /// Lines were gathered for this client (``gather(_:)``) and wait for ``flush()``.
    var gathered = false
    /// Monotonic time of the connection or of the last bytes it sent (the idle timeout).
    var lastInput: Double
    /// Monotonic time since which output has waited without the client reading any; nil
    /// while nothing waits (the idle timeout of a client that stopped reading).
    private(set) var waitingSince: Double?

    init(id: Int, fd: Int32, peer: String, origin: ClientOrigin, limits: ServiceConfiguration.Limits, headingFilter: Double, now: Double) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.origin = origin
        lastInput = now
        outbox = ClientOutbox(limit: limits.clientQueueBytes)
        input = LineAssembler(limit: limits.maxLineLength)
        filter = HeadingFilter(threshold: headingFilter)
    }

    var name: String { "client \(id) (\(peer))" }

    /// Sends a line now when nothing is queued, else queues it behind the rest.
    /// Returns true when the event loop must look at this client (output
    /// became pending, or the client failed).
    func send(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !closing else { return false }
        guard outbox.isEmpty else {
            outbox.enqueue(line)
            return false
        }
        let n = Sockets.send(fd, UnsafeRawBufferPointer(line))
        if n == line.count { return false }
        if n < 0 {
            closing = true
            return true
        }
        outbox.enqueueRest(UnsafeBufferPointer(rebasing: line[n...]))
        noteWaiting()
        return true
    }

    /// Output started to wait (the queue was empty).
    private func noteWaiting() {
        if waitingSince == nil { waitingSince = Clock.monotonic() }
    }

    /// Queues a line to be written with the next ``flush()``, with the lines of the
    /// samples that arrived together: one write for all of them.
    func gather(_ line: UnsafeBufferPointer<UInt8>) {
        guard !closing else { return }
        outbox.enqueue(line)
        gathered = true
    }

    /// Writes what is queued; false when the client failed. Output still waiting after a
    /// write that took something waits from now.
    func flush() -> Bool {
        guard !closing else { return false }
        let before = outbox.queuedBytes
        if !outbox.flush({ Sockets.send(fd, $0) }) { closing = true }
        if outbox.isEmpty {
            waitingSince = nil
        } else if outbox.queuedBytes < before || waitingSince == nil {
            waitingSince = Clock.monotonic()
        }
        return !closing
    }
}
