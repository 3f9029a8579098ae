#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneSession

/// Whether the process may open the descriptors its client limits promise.
///
/// Every client is a descriptor; so are the listeners, pipes, sensors and their
/// buffers, gpsd, a serial port and a profile being written. Client limits the
/// process cannot reach would end in EMFILE with clients waiting (issue 13: 1024
/// clients under the usual limit of 1024 descriptors), so the service raises its
/// soft limit as far as the hard one allows and refuses, at start and on reload,
/// limits beyond it.
enum DescriptorBudget {
    /// Descriptors for everything but clients.
    static let fixed = 64

    /// Descriptors the configuration may need at most.
    static func needed(_ c: ServiceConfiguration) -> Int {
        var n = fixed
        if c.socketPath != nil { n += c.limits.maxClients }
        if !c.tcpListeners.isEmpty { n += c.limits.maxNetworkClients }
        if c.nmea.listen != nil { n += c.limits.maxNetworkClients }
        // ecoint: add the HTTP listener's clients here.
        return n
    }

    /// The soft limit on open descriptors, raised towards `wanted` when the hard limit allows.
    static func available(wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        let soft = Int(clamping: limit.rlim_cur), hard = Int(clamping: limit.rlim_max)
        guard soft < wanted, hard > soft else { return soft }
        var raised = limit
        raised.rlim_cur = rlim_t(min(wanted, hard))
        // Fails under a system-call filter that denies @resources; the soft limit then stands.
        guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return soft }
        return min(wanted, hard)
    }

    /// Throws when the configuration's client limits need more descriptors than the process may open.
    static func check(_ c: ServiceConfiguration) throws(ConfigurationError) {
        let needed = needed(c)
        let available = available(wanted: needed)
        guard needed > available else { return }
        var parts: [String] = []
        if c.socketPath != nil { parts.append("limits.maxClients \(c.limits.maxClients)") }
        if !c.tcpListeners.isEmpty { parts.append("limits.maxNetworkClients \(c.limits.maxNetworkClients) (TCP)") }
        if c.nmea.listen != nil { parts.append("limits.maxNetworkClients \(c.limits.maxNetworkClients) (NMEA)") }
        throw ConfigurationError(key: "limits", "\(parts.joined(separator: " + ")) + \(fixed) for the service itself need \(needed) file descriptors, but the process may open only \(available); raise the limit (LimitNOFILE= in the systemd unit, or ulimit -n) or lower the client limits")
    }
}
