#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneNetwork

/// Accepting connections when the process is out of file descriptors (EMFILE,
/// ENFILE) or kernel memory (ENOBUFS, ENOMEM).
///
/// A failed `accept` leaves the connection in the backlog and the listener
/// readable, so trying again at once spins at 100 % CPU while the peers wait
/// for an answer that never comes (issue 13). Instead the descriptor kept spare
/// for this moment is closed, the waiting connection is accepted, told why and
/// closed, and the spare is opened again; then every listener rests, 0.1 s
/// doubling to 2 s while accepting keeps failing. The warning is throttled.
final class AcceptGuard {
    private var spare: Int32 = -1
    private var rest = AcceptGuard.firstRest
    /// Monotonic time until which no listener is polled.
    private(set) var restingUntil = -Double.infinity
    private var warning = ThrottledWarning()
    private let log: ServiceLog

    static let firstRest = 0.1
    static let longestRest = 2.0

    init(log: ServiceLog) {
        self.log = log
        openSpare()
    }

    deinit {
        if spare >= 0 { close(spare) }
    }

    private func openSpare() {
        if spare < 0 { spare = open("/dev/null", O_RDONLY | O_CLOEXEC) }
    }

    func isResting(now: Double) -> Bool { now < restingUntil }

    /// Accepting worked: the next failure rests briefly again.
    func accepted() {
        rest = Self.firstRest
    }

    /// Connections shed at most per failure (a full backlog).
    static let sheddingBatch = 64

    /// Handles an `.exhausted` accept on `listener`: answers the waiting connections with
    /// `message` (an ERROR line) and closes them while the spare descriptor allows, then rests.
    func exhausted(_ listener: Int32, errno e: Int32, message: String, what: String, now: Double) {
        let line = Array(message.utf8)
        for _ in 0..<Self.sheddingBatch where spare >= 0 {
            close(spare)
            spare = -1
            let outcome = Sockets.acceptConnection(listener)
            if case .connection(let fd, _) = outcome {
                _ = line.withUnsafeBytes { Sockets.send(fd, $0) }
                close(fd)
            }
            openSpare()
            guard case .connection = outcome else { break }
        }
        restingUntil = now + rest
        let (shouldLog, leftOut) = warning.admit(now: now)
        if shouldLog {
            let text = "cannot accept \(what): \(Sockets.errorText(e)); refusing connections for \(rest) s at a time until descriptors are free (raise LimitNOFILE= or lower the client limits)"
            log.warning(ThrottledWarning.text(text, leftOut: leftOut, interval: warning.interval))
        }
        rest = min(rest * 2, Self.longestRest)
    }
}
