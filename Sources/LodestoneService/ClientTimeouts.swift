/// The idle timeout (`limits.idleTimeout`, gpsd's NOREAD_TIMEOUT): a connection
/// that does nothing must not hold a client slot for ever.
extension ClientRegistry {
    /// Closes the clients that neither watch nor wait for a poll and sent nothing for
    /// `timeout` seconds (told why first), and those that read nothing for `timeout`
    /// seconds while output waited for them. Returns what to log.
    func expireIdle(now: Double, timeout: Double) -> [String] {
        var closed: [String] = []
        for c in clients where !c.closing {
            if !c.watching, c.pollDeadline == nil, now - c.lastInput >= timeout {
                reply(c) { ProtocolMessages.error($0, "closing: no command and no ?WATCH for \(Int(timeout)) s (limits.idleTimeout)") }
                c.closing = true
                closed.append("\(c.name) sent nothing for \(Int(timeout)) s and was not watching; closed")
            } else if let since = c.waitingSince, now - since >= timeout {
                c.closing = true
                closed.append("\(c.name) read nothing for \(Int(timeout)) s while output waited; closed")
            }
        }
        return closed
    }
}
