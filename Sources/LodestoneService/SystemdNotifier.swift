#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// sd_notify(3) without libsystemd: one datagram per state change to the
/// Unix socket named by `$NOTIFY_SOCKET` (a leading `@` is the abstract
/// namespace). Used with `Type=notify` in `tools/lodestone.service`:
/// READY=1 once listening, RELOADING=1 / READY=1 around a SIGHUP reload,
/// STOPPING=1 on shutdown, and WATCHDOG=1 from the event loop at half of
/// `$WATCHDOG_USEC` when the unit sets WatchdogSec=.
struct SystemdNotifier {
    private let path: [UInt8]?
    /// Seconds between WATCHDOG=1 messages; nil when no watchdog is asked for.
    let watchdogInterval: Double?

    init(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) {
        if let p = environment("NOTIFY_SOCKET"), !p.isEmpty, p.hasPrefix("/") || p.hasPrefix("@") {
            var bytes = Array(p.utf8)
            if bytes[0] == 0x40 { bytes[0] = 0 }
            path = bytes.count < 108 ? bytes : nil
        } else {
            path = nil
        }
        var interval: Double?
        if let usec = environment("WATCHDOG_USEC").flatMap({ Double($0) }), usec > 0 {
            let pid = environment("WATCHDOG_PID").flatMap { Int32($0) }
            if pid == nil || pid == getpid() { interval = usec / 2e6 }
        }
        watchdogInterval = interval
    }

    var isEnabled: Bool { path != nil }

    /// Sends `state` (e.g. "READY=1\nSTATUS=…"); false when it could not be sent.
    @discardableResult
    func notify(_ state: String) -> Bool {
        guard let path else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        // Abstract names are not NUL-terminated: the address length counts the bytes.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
        return sent == bytes.count
    }
}
