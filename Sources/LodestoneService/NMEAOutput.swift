#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore
import LodestoneNetwork

/// NMEA 0183 heading sentences for chart plotters and gateways: a TCP server
/// (OpenCPN, Signal K and gpsd connect to it; 10110 is the usual port) and
/// optionally a serial device.
///
/// Runs on the event loop. Each consumer has a small bounded queue of whole
/// sentences; one that does not keep up loses the oldest, never a torn one.
/// While it has consumers it keeps the sensors claimed.
final class NMEAOutput {
    struct Consumer {
        let fd: Int32
        let peer: String
        var outbox = ClientOutbox(limit: 4096)
        let isSerial: Bool
        /// Monotonic time since which sentences have waited without the consumer taking any.
        var waitingSince: Double?

        /// Writes what is queued; false when the descriptor failed.
        mutating func flush(now: Double) -> Bool {
            let before = outbox.queuedBytes, fd = fd, serial = isSerial
            guard outbox.flush({ serial ? Sockets.write(fd, $0) : Sockets.send(fd, $0) }) else { return false }
            if outbox.isEmpty {
                waitingSince = nil
            } else if outbox.queuedBytes < before || waitingSince == nil {
                waitingSince = now
            }
            return true
        }
    }

    private(set) var settings: ServiceConfiguration.NMEA
    private var encoder: NMEAEncoder
    private(set) var listeners: [Int32] = []
    private(set) var consumers: [Consumer] = []
    private var serialRetryAt: Double?
    private var buffer: [UInt8] = []
    private(set) var nextEmission = 0.0
    private var maxClients: Int
    private let acceptGuard: AcceptGuard
    private var refusals = ThrottledWarning()
    private let log: ServiceLog

    init(_ settings: ServiceConfiguration.NMEA, maxClients: Int, acceptGuard: AcceptGuard, log: ServiceLog) throws(ServiceError) {
        self.settings = settings
        encoder = NMEAEncoder(talker: settings.talker)
        self.maxClients = maxClients
        self.acceptGuard = acceptGuard
        self.log = log
        buffer.reserveCapacity(256)
        if let e = settings.listen {
            listeners = try listen(e)
        }
        if settings.serial != nil { openSerial(now: 0) }
    }

    private func listen(_ e: Endpoint) throws(ServiceError) -> [Int32] {
        let fds = try Sockets.listeningTCP(e)
        if !e.isLoopback { log.warning("NMEA sentences are served on \(e), which is not loopback: anyone who can reach it gets headings") }
        log.info("NMEA 0183 heading sentences on tcp \(e) at \(settings.rate) Hz")
        return fds
    }

    var hasConsumers: Bool { !consumers.isEmpty || settings.serial != nil }

    func closeAll() {
        for fd in listeners { close(fd) }
        for c in consumers { close(c.fd) }
        listeners = []
        consumers = []
    }

    /// Applies a reloaded configuration (rate, talker; listener and serial port if changed).
    func update(_ new: ServiceConfiguration.NMEA, maxClients: Int) throws(ServiceError) {
        self.maxClients = maxClients
        if new.listen != settings.listen {
            let fresh = try new.listen.map { e throws(ServiceError) in try listen(e) } ?? []
            for fd in listeners { close(fd) }
            listeners = fresh
        }
        if new.serial != settings.serial || new.baud != settings.baud {
            consumers.removeAll { c in
                if c.isSerial { close(c.fd) }
                return c.isSerial
            }
            settings = new
            if new.serial != nil { openSerial(now: 0) }
        }
        settings = new
        encoder = NMEAEncoder(talker: new.talker)
    }

    private func openSerial(now: Double) {
        guard let path = settings.serial else { return }
        let fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            log.warning("NMEA serial \(path): cannot open: \(Sockets.errorText(errno)); retrying every 5 s")
            serialRetryAt = now + 5
            return
        }
        if isatty(fd) == 1 {
            var tio = termios()
            if tcgetattr(fd, &tio) == 0 {
                tio.c_oflag &= ~tcflag_t(OPOST)
                tio.c_cflag = (tio.c_cflag & ~tcflag_t(CSIZE | PARENB | CSTOPB)) | tcflag_t(CS8 | CLOCAL | CREAD)
                tio.c_lflag = 0
                let speed = NMEASerialSpeed.constant(settings.baud)
                cfsetospeed(&tio, speed)
                cfsetispeed(&tio, speed)
                _ = tcsetattr(fd, TCSANOW, &tio)
            }
        }
        serialRetryAt = nil
        consumers.append(Consumer(fd: fd, peer: path, isSerial: true))
        log.info("NMEA 0183 heading sentences on \(path) at \(settings.baud) baud")
    }

    func accept(_ listener: Int32, now: Double) {
        while true {
            switch Sockets.acceptConnection(listener) {
            case .none:
                return
            case .exhausted(let e):
                acceptGuard.exhausted(listener, errno: e, message: "", what: "an NMEA client", now: now)
                return
            case .failed(let e):
                log.error("accepting an NMEA client failed: \(Sockets.errorText(e))")
                return
            case .connection(let fd, let peer):
                acceptGuard.accepted()
                guard consumers.filter({ !$0.isSerial }).count < maxClients else {
                    close(fd)
                    let (shouldLog, leftOut) = refusals.admit(now: now)
                    if shouldLog {
                        log.warning(ThrottledWarning.text("NMEA: refused \(peer): \(maxClients) clients already", leftOut: leftOut, interval: refusals.interval))
                    }
                    continue
                }
                consumers.append(Consumer(fd: fd, peer: peer, isSerial: false))
                log.debug("NMEA client connected (\(peer))")
            }
        }
    }

    /// Reads (and ignores) what a TCP consumer sends; closes it at end of stream.
    func readable(_ fd: Int32) {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let n = withUnsafeMutableBytes(of: &scratch) { read(fd, $0.baseAddress, $0.count) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { drop(fd, why: "disconnected") }
    }

    func writable(_ fd: Int32) {
        guard let i = consumers.firstIndex(where: { $0.fd == fd }) else { return }
        if !consumers[i].flush(now: Clock.monotonic()) { drop(fd, why: "write failed") }
    }

    func drop(_ fd: Int32, why: String) {
        guard let i = consumers.firstIndex(where: { $0.fd == fd }) else { return }
        let c = consumers.remove(at: i)
        close(fd)
        if c.isSerial {
            log.warning("NMEA serial \(c.peer): \(why); reopening in 5 s")
            serialRetryAt = Clock.monotonic() + 5
        } else {
            log.debug("NMEA client \(c.peer) \(why)")
        }
    }

    /// Closes the TCP consumers that took nothing for `timeout` seconds while sentences waited
    /// (`limits.idleTimeout`): a peer that stopped reading must not hold a slot for ever.
    func expireStalled(now: Double, timeout: Double) {
        for c in consumers where !c.isSerial {
            if let since = c.waitingSince, now - since >= timeout { drop(c.fd, why: "read nothing for \(Int(timeout)) s; closed") }
        }
    }

    /// Emits one group of sentences if it is time; returns the next time to call.
    func tick(now: Double, heading: () -> (Heading, Tilt)?) -> Double {
        if let retry = serialRetryAt, now >= retry { openSerial(now: now) }
        guard now >= nextEmission else { return nextEmission }
        let period = 1 / settings.rate
        nextEmission = max(nextEmission + period, now)
        if nextEmission < now + period * 0.5 { nextEmission = now + period }
        guard !consumers.isEmpty, let (h, tilt) = heading(), h.isValid else { return nextEmission }
        buffer.removeAll(keepingCapacity: true)
        encoder.appendGroup(h, tilt: tilt, to: &buffer)
        var failed: [Int32] = []
        buffer.withUnsafeBufferPointer { group in
            for i in consumers.indices {
                let fd = consumers[i].fd
                // Whole sentences only: queue the group, then write what the descriptor takes.
                var start = 0
                for k in group.indices where group[k] == 0x0A {
                    consumers[i].outbox.enqueue(UnsafeBufferPointer(rebasing: group[start...k]))
                    start = k + 1
                }
                if !consumers[i].flush(now: now) { failed.append(fd) }
            }
        }
        for fd in failed { drop(fd, why: "write failed") }
        return nextEmission
    }
}

/// Serial speeds NMEA devices use (4800 baud is NMEA 0183's own; 38400 is "high speed").
enum NMEASerialSpeed {
    static let supported = [4800, 9600, 19200, 38400, 57600, 115200]

    static func isSupported(_ baud: Int) -> Bool { supported.contains(baud) }

    static func constant(_ baud: Int) -> speed_t {
        switch baud {
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115200: return speed_t(B115200)
        default: return speed_t(B4800)
        }
    }
}
