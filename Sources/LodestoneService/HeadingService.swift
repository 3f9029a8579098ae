#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibration
import LodestoneCore

/// `lodestone serve`: the heading daemon.
///
/// Two threads. The sample thread (``SampleRunner``) reads the source and
/// hands each sample to the ``Hub``, which runs the estimator once and
/// writes HEADING lines to watching clients without blocking. The event loop
/// (this class, on the caller's thread) polls every socket: it accepts
/// clients and serves their commands, flushes what slow clients left queued,
/// talks to gpsd, emits NMEA sentences, keeps the declination current, and
/// handles SIGTERM (clean stop), SIGHUP (reload) and systemd notification.
public final class HeadingService {
    public enum Outcome: Sendable {
        /// Stopped by a signal (SIGTERM or SIGINT).
        case stopped(signal: Int32)
        /// A replay reached the end of its log.
        case sourceEnded
        case failed(ServiceError)
    }

    /// Reads the configuration again (SIGHUP).
    public typealias Reload = () throws -> ServiceConfiguration

    private var configuration: ServiceConfiguration
    private let reloadConfiguration: Reload?
    private let log: ServiceLog
    private let hub: Hub
    private let loopWake: WakePipe
    private let runner: SampleRunner
    private let signals: SignalPipe
    private var listeners: [(fd: Int32, key: String)] = []
    private var nmea: NMEAOutput
    private var gpsd: GPSDClient?
    private var trueNorth: TrueNorthTracker
    private let notifier = SystemdNotifier()
    private var nextTick = 0.0
    private var nextWatchdog = 0.0
    private var lastDemand = false
    private var readBuffer = [UInt8](repeating: 0, count: 16384)

    /// Opens the source, loads the calibration for its devices and binds every listener;
    /// throws on the first problem. Without `reload`, SIGHUP keeps the configuration and
    /// reads the calibration profiles again.
    public init(configuration: ServiceConfiguration, release: String, log: ServiceLog, reload: Reload? = nil) throws(ServiceError) {
        do {
            try configuration.validate()
        } catch {
            throw ServiceError(.badInput, error.description)
        }
        self.configuration = configuration
        reloadConfiguration = reload
        self.log = log
        let settings = Self.estimatorSettings(configuration)
        let source = try ServiceSources.make(configuration.source, fusion: configuration.fusion)
        let calibration: ServiceCalibration
        do {
            calibration = try ServiceCalibration.load(configuration.calibration, for: source.calibrationDevices)
        } catch {
            source.release()
            throw error
        }
        for note in calibration.notes { log.info(note) }
        if configuration.autoCalibrate { log.info(calibration.autoCalibration.startNote) }
        hub = Hub(HubState(release: release, settings: settings, calibration: calibration, calibrationChoice: configuration.calibration,
                           autoCalibrate: configuration.autoCalibrate, headingFilter: configuration.headingFilter,
                           limits: configuration.limits, source: configuration.source))
        loopWake = try WakePipe()
        runner = SampleRunner(hub: hub, loopWake: loopWake, source: source, fusion: configuration.fusion, log: log)
        signals = try SignalPipe()
        nmea = try NMEAOutput(configuration.nmea, maxClients: configuration.limits.maxClients, log: log)
        trueNorth = Self.tracker(configuration)
        if case .gpsd(let endpoint) = configuration.position { gpsd = GPSDClient(endpoint: endpoint, log: log) }
        do {
            try updateListeners(configuration)
        } catch {
            nmea.closeAll()
            throw error
        }
        hub.withLock { $0.reportsMotion = Self.reportsMotion(configuration) }
    }

    /// The estimator settings of `c`, without the calibration (``ServiceCalibration`` adds it).
    static func estimatorSettings(_ c: ServiceConfiguration) -> HeadingEstimator.Settings {
        var s = HeadingEstimator.Settings(forwardAxis: c.forwardAxis, fusion: c.fusion)
        if !c.smoothing { s.smoothing = nil }
        return s
    }

    static func tracker(_ c: ServiceConfiguration) -> TrueNorthTracker {
        TrueNorthTracker(configuration: c.position, maxFixAge: c.maxFixAge, model: c.model.model,
                         allowExtrapolation: c.allowExtrapolation, fixedDate: c.modelDate)
    }

    static func reportsMotion(_ c: ServiceConfiguration) -> Bool {
        if case .gpsd = c.position { return true }
        return false
    }

    // MARK: Listeners

    private static func listenerKeys(_ c: ServiceConfiguration) -> [String] {
        (c.socketPath.map { ["unix:" + $0] } ?? []) + c.tcpListeners.map { "tcp:\($0)" }
    }

    /// Opens the listeners `c` asks for that are not open yet, then closes the
    /// ones it no longer names. A failure leaves the old set as it was.
    private func updateListeners(_ c: ServiceConfiguration) throws(ServiceError) {
        let wanted = Self.listenerKeys(c)
        var opened: [(fd: Int32, key: String)] = []
        do {
            for key in wanted where !listeners.contains(where: { $0.key == key }) {
                if key.hasPrefix("unix:") {
                    opened.append((try Sockets.listenUnix(path: String(key.dropFirst(5)), mode: c.socketMode), key))
                } else if let e = c.tcpListeners.first(where: { "tcp:\($0)" == key }) {
                    if !e.isLoopback { log.warning("the client protocol listens on \(e), which is not loopback: anyone who can reach it gets headings") }
                    opened += try Sockets.listenTCP(e).map { ($0, key) }
                }
            }
        } catch {
            for l in opened { closeListener(l) }
            throw error
        }
        for l in listeners where !wanted.contains(l.key) { closeListener(l) }
        listeners.removeAll { !wanted.contains($0.key) }
        listeners += opened
        if let path = c.socketPath, !opened.contains(where: { $0.key == "unix:" + path }) {
            chmod(path, mode_t(c.socketMode))
        }
        for l in opened { log.info("listening on \(l.key.hasPrefix("unix:") ? "unix socket \(l.key.dropFirst(5))" : l.key)") }
    }

    private func closeListener(_ l: (fd: Int32, key: String)) {
        close(l.fd)
        if l.key.hasPrefix("unix:") { unlink(String(l.key.dropFirst(5))) }
    }

    // MARK: Running

    /// Serves until SIGTERM/SIGINT, the end of a replay, or a source failure.
    public func run() -> Outcome {
        do {
            try runner.start()
        } catch {
            return .failed(error)
        }
        tick(now: Clock.monotonic())
        notifier.notify("READY=1\nSTATUS=serving headings")
        log.notice("ready: \(describeSource()); \(listeners.map(\.key).joined(separator: ", "))")
        var fds: [pollfd] = []
        var slots: [Slot] = []
        while true {
            let now = Clock.monotonic()
            if now >= nextTick { tick(now: now) }
            gpsd?.tick(now: now) // reconnect attempts follow their own back-off, not the 1 s tick
            var deadline = nextTick
            if nmea.hasConsumers { deadline = min(deadline, nmea.tick(now: now) { hub.withLock { $0.latestHeading(now: now, maximumAge: 1) } }) }
            if let poll = hub.withLock({ $0.earliestPollDeadline }) {
                if poll <= now { hub.withLock { $0.expirePolls(now: now) } } else { deadline = min(deadline, poll) }
            }
            if let t = gpsd?.nextAttempt { deadline = min(deadline, max(t, now)) }
            buildPollSet(&fds, &slots)
            let timeout = Int32(max(0, min(1000, ((deadline - Clock.monotonic()) * 1000).rounded(.up))))
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0, errno != EINTR { return shutdown(.failed(ServiceError(.failure, "poll failed: \(Sockets.errorText(errno))"))) }
            for (i, p) in fds.enumerated() where p.revents != 0 {
                switch slots[i] {
                case .signals:
                    for s in signals.take() {
                        if s == SIGHUP { reload() } else { return shutdown(.stopped(signal: s)) }
                    }
                case .wake:
                    loopWake.drain()
                    saveCalibrationUpdates()
                case .listener(let fd): accept(fd)
                case .nmeaListener(let fd): nmea.accept(fd)
                case .nmeaConsumer(let fd):
                    if p.revents & Int16(POLLOUT) != 0 { nmea.writable(fd) }
                    if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { nmea.readable(fd) }
                case .gpsd:
                    gpsd?.handle(events: p.revents, now: Clock.monotonic()) { gpsdReport($0) }
                case .client(let fd):
                    serve(fd: fd, events: p.revents)
                }
            }
            closeFailedClients()
            let (fatal, ended) = hub.withLock { ($0.fatalError, $0.sourceEnded) }
            if let fatal { return shutdown(.failed(fatal)) }
            if ended { return shutdown(.sourceEnded) }
            updateDemand()
        }
    }

    private enum Slot {
        case signals, wake, gpsd
        case listener(Int32), nmeaListener(Int32), nmeaConsumer(Int32), client(Int32)
    }

    private func buildPollSet(_ fds: inout [pollfd], _ slots: inout [Slot]) {
        fds.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        func add(_ fd: Int32, _ events: Int32, _ slot: Slot) {
            fds.append(pollfd(fd: fd, events: Int16(events), revents: 0))
            slots.append(slot)
        }
        add(signals.pipe.readFD, POLLIN, .signals)
        add(loopWake.readFD, POLLIN, .wake)
        for l in listeners { add(l.fd, POLLIN, .listener(l.fd)) }
        for fd in nmea.listeners { add(fd, POLLIN, .nmeaListener(fd)) }
        for c in nmea.consumers { add(c.fd, (c.isSerial ? 0 : POLLIN) | (c.outbox.isEmpty ? 0 : POLLOUT), .nmeaConsumer(c.fd)) }
        if let g = gpsd, let fd = g.fd { add(fd, g.wantsWritable ? POLLOUT : POLLIN, .gpsd) }
        let clients = hub.withLock { s in s.clients.map { ($0.fd, !$0.outbox.isEmpty) } }
        for (fd, pending) in clients { add(fd, POLLIN | (pending ? POLLOUT : 0), .client(fd)) }
    }

    /// Once a second (and at start): position and declination, gpsd connection, watchdog.
    private func tick(now: Double) {
        nextTick = now + 1
        gpsd?.tick(now: now)
        updateTrueNorth(now: now)
        if let interval = notifier.watchdogInterval, now >= nextWatchdog {
            notifier.notify("WATCHDOG=1")
            nextWatchdog = now + interval
            nextTick = min(nextTick, nextWatchdog)
        }
    }

    private func updateTrueNorth(now: Double) {
        if let g = gpsd { trueNorth.gpsdLinkChanged(problem: g.problem) }
        let wall = Clock.wall()
        let events = trueNorth.update(now: now, unixTime: wall)
        let (declination, position, status, field) = (trueNorth.declination, trueNorth.position, trueNorth.status, trueNorth.expectedField)
        hub.withLock { s in
            s.setDeclination(declination)
            s.position = position
            s.trueNorthStatus = status
            s.setExpectedField(field)
            for e in events { s.broadcast(e, wall: wall) }
        }
        for e in events { log.info("\(e.name): \(e.detail)") }
    }

    private func gpsdReport(_ report: GPSDReport) {
        guard case .fix(let fix) = report else { return }
        trueNorth.fixReceived(fix, at: Clock.monotonic())
        updateTrueNorth(now: Clock.monotonic())
    }

    private func updateDemand() {
        let consumers = nmea.hasConsumers
        let demand = hub.withLock { s -> Bool in
            s.nmeaDemand = consumers
            return s.demand
        }
        if demand != lastDemand {
            lastDemand = demand
            runner.wake.signal()
        }
    }

    private func describeSource() -> String {
        switch configuration.source {
        case .iio(let s): return "IIO sensors on \(s.uri) at \(s.rate) Hz"
        case .replay(let r): return "replaying \(r.path)" + (r.loop ? " in a loop" : "") + (r.speed.map { " at \($0)× speed" } ?? " as fast as possible")
        case .simulated(let s): return "a SIMULATED board (demo motion) at \(s.rate) Hz"
        }
    }

    // MARK: Clients

    private func accept(_ listener: Int32) {
        while let (fd, peer) = Sockets.accept(listener) {
            let limit = configuration.limits.maxClients
            let accepted = hub.withLock { s -> Bool in
                guard s.clients.count < limit else { return false }
                _ = s.addClient(fd: fd, peer: peer)
                return true
            }
            if !accepted {
                let text = Array("{\"class\":\"ERROR\",\"message\":\"too many clients (\(limit)); try again later\"}\n".utf8)
                _ = text.withUnsafeBytes { Sockets.send(fd, $0) }
                close(fd)
                log.warning("refused a client (\(peer)): \(limit) clients already connected")
                continue
            }
            log.debug("client connected (\(peer))")
        }
    }

    private func serve(fd: Int32, events: Int16) {
        if events & Int16(POLLOUT) != 0 {
            let ok = hub.withLock { s -> Bool in
                guard let c = s.client(fd: fd) else { return true }
                return s.flush(c, wall: Clock.wall())
            }
            if !ok { return }
        }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        var rounds = 0
        while rounds < 4 {
            rounds += 1
            let n = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                let wall = Clock.wall(), now = Clock.monotonic()
                readBuffer.withUnsafeBytes { raw in
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                    hub.withLock { s in
                        if let c = s.client(fd: fd) { s.received(bytes, from: c, wall: wall, now: now) }
                    }
                }
                if n < readBuffer.count { return }
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            hub.withLock { s in s.client(fd: fd)?.closing = true }
            return
        }
    }

    private func closeFailedClients() {
        let gone = hub.withLock { s -> [(Int32, String, Int)] in
            let failed = s.clients.filter(\.closing)
            for c in failed { s.remove(c) }
            return failed.map { ($0.fd, $0.name, $0.outbox.totalDroppedLines) }
        }
        for (fd, name, dropped) in gone {
            close(fd)
            if dropped > 0 {
                log.info("\(name) disconnected; \(dropped) line(s) were dropped for it in all (it read too slowly)")
            } else {
                log.debug("\(name) disconnected")
            }
        }
    }

    // MARK: Calibration updates

    /// Saves the profiles that hard-iron tracking changed on the sample thread
    /// (atomically, and only over the profile they started from) and tells
    /// every watcher, on this thread: a slow disk never holds up the samples.
    private func saveCalibrationUpdates() {
        let pending = hub.withLock { $0.takeCalibrationUpdates() }
        for p in pending {
            let result = p.save()
            let detail = p.adoption.update.detail + "; " + result.sentence
            if result.isSaved || p.path == nil {
                log.notice("calibration updated by hard-iron tracking: \(detail)")
            } else {
                log.warning("calibration updated by hard-iron tracking: \(detail)")
            }
            let event = ServiceEvent("calibrationUpdated", reason: "hardIronTracking", detail)
            hub.withLock { $0.broadcast(event, wall: Clock.wall()) }
        }
    }

    // MARK: Reload and stop

    private func reload() {
        notifier.notify("RELOADING=1")
        defer { notifier.notify("READY=1\nSTATUS=serving headings") }
        // Updates from hard-iron tracking go to their files before the files are read again.
        saveCalibrationUpdates()
        let old = configuration
        let new: ServiceConfiguration
        var calibration: ServiceCalibration?
        do {
            new = try reloadConfiguration?() ?? old
            try new.validate()
            // A new source gets its profiles when the sample thread opens it; the same
            // source's are read again now, so that a bad one refuses the whole reload.
            if new.source == old.source && new.fusion == old.fusion {
                calibration = try ServiceCalibration.load(new.calibration, for: hub.withLock { $0.calibrationDevices })
            }
            try nmea.update(new.nmea)
            try updateListeners(new)
        } catch {
            log.error("SIGHUP: the configuration was not reloaded, the running one stays: \(error)")
            return
        }
        let settings = Self.estimatorSettings(new)
        configuration = new
        if new.position != old.position || new.maxFixAge != old.maxFixAge || new.model != old.model
            || new.modelDate != old.modelDate || new.allowExtrapolation != old.allowExtrapolation {
            trueNorth = Self.tracker(new)
            if case .gpsd(let e) = new.position {
                if gpsd?.endpoint != e {
                    gpsd?.close()
                    gpsd = GPSDClient(endpoint: e, log: log)
                }
            } else {
                gpsd?.close()
                gpsd = nil
            }
        }
        let sourceChanged = new.source != old.source || new.fusion != old.fusion
        let motion = Self.reportsMotion(new)
        hub.withLock { s in
            s.setSettings(settings)
            s.autoCalibrate = new.autoCalibrate
            if let calibration { s.setCalibration(calibration) }
            s.calibrationChoice = new.calibration
            s.defaultHeadingFilter = new.headingFilter
            s.limits = new.limits
            s.reportsMotion = motion
            if sourceChanged {
                s.sourceConfiguration = new.source
                s.sourceGeneration += 1
            }
        }
        if sourceChanged { runner.wake.signal() }
        for note in calibration?.notes ?? [] { log.info(note) }
        if let calibration, new.autoCalibrate { log.info(calibration.autoCalibration.startNote) }
        updateTrueNorth(now: Clock.monotonic())
        log.notice("SIGHUP: configuration and calibration reloaded" + (sourceChanged ? "; the source is reopened" : ""))
    }

    /// Stops cleanly: no new clients, the sample thread stops, every client
    /// gets a final EVENT and what was queued for it (up to 2 s), then the
    /// sockets close and the Unix socket file is removed.
    private func shutdown(_ outcome: Outcome) -> Outcome {
        notifier.notify("STOPPING=1")
        let reason: ServiceEvent
        switch outcome {
        case .stopped(let s):
            reason = ServiceEvent("serviceStopping", reason: s == SIGTERM ? "SIGTERM" : "SIGINT", "the service is stopping")
            log.notice("stopping (\(s == SIGTERM ? "SIGTERM" : "SIGINT"))")
        case .sourceEnded:
            reason = ServiceEvent("serviceStopping", reason: "sourceEnded", "the replay reached the end of its log")
            log.notice("the replay reached the end of its log; stopping")
        case .failed(let e):
            reason = ServiceEvent("serviceStopping", reason: "failure", e.description)
            log.error(e.description)
        }
        saveCalibrationUpdates()
        for l in listeners { closeListener(l) }
        listeners = []
        nmea.closeAll()
        gpsd?.close()
        let wall = Clock.wall()
        hub.withLock { s in
            s.stopping = true
            s.broadcast(reason, wall: wall)
        }
        runner.wake.signal()
        // Finish what is queued for each client, at most 2 s.
        let deadline = Clock.monotonic() + 2
        while Clock.monotonic() < deadline {
            let pending = hub.withLock { s in s.clients.filter { !$0.closing && !$0.outbox.isEmpty }.map(\.fd) }
            if pending.isEmpty { break }
            var fds = pending.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            for p in fds where p.revents != 0 {
                hub.withLock { s in
                    if let c = s.client(fd: p.fd) { _ = s.flush(c, wall: wall) }
                }
            }
        }
        let all = hub.withLock { s -> [(Int32, String, Int)] in
            let list = s.clients.map { ($0.fd, $0.name, $0.outbox.totalDroppedLines) }
            s.clients.removeAll()
            return list
        }
        for (fd, name, dropped) in all {
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
            if dropped > 0 { log.info("\(name): \(dropped) line(s) were dropped for it in all (it read too slowly)") }
        }
        // Let the sample thread release the sensors (disables IIO buffers), at most 3 s.
        let stopBy = Clock.monotonic() + 3
        while !hub.withLock({ $0.runnerFinished }), Clock.monotonic() < stopBy {
            loopWake.wait(timeout: 0.1)
        }
        return outcome
    }
}
