#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibration
import LodestoneCore
import LodestoneNetwork
import LodestonePosition
import LodestoneSession

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

    private(set) var configuration: ServiceConfiguration
    private let reloadConfiguration: Reload?
    let log: ServiceLog
    let hub: Hub
    /// The D-Bus compass and the demand of the listeners with threads of their own.
    let listenerOutputs: ListenerOutputs
    /// The live view, when it is on.
    var liveView: LiveViewPublisher?
    private let loopWake: WakePipe
    private let runner: SampleRunner
    private let signals: SignalPipe
    private let listeners: ProtocolListeners
    private let acceptGuard: AcceptGuard
    private var refusals = ThrottledWarning()
    private var nmea: NMEAOutput
    private var gpsd: GPSDClient?
    /// A position source the loop polls: a replayed log, or a fixed position for the location half.
    private var polledPosition: (any PositionSource)?
    private var reportedPositionEnd = false
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
            try DescriptorBudget.check(configuration)
        } catch {
            throw ServiceError(.badInput, error.description)
        }
        self.configuration = configuration
        reloadConfiguration = reload
        self.log = log
        listeners = ProtocolListeners(log: log)
        acceptGuard = AcceptGuard(log: log)
        let heading = configuration.heading
        let source = try SessionSources.open(heading.source, fusion: heading.session.estimator.fusion)
        let session: HeadingSession
        let location: LocationService
        do {
            try heading.session.check(hasGyroscope: source.hasGyroscope)
            session = try HeadingSession(settings: heading.session, devices: source.calibrationDevices, saving: .byHost)
            location = try LocationService(configuration.location)
            if case .gpsd = heading.position {} else { polledPosition = try heading.position.makeLocationSource(wallClock: Clock.wall()) }
        } catch {
            source.release()
            throw error
        }
        for note in session.notes { log.info(note) }
        if location.regionsProblem != nil { log.error(location.regionsNote) } else { log.info(location.regionsNote) }
        let sampleWake = try WakePipe.make()
        listenerOutputs = ListenerOutputs(sampleWake: sampleWake)
        hub = Hub(HubState(release: release, session: session, location: location, configuration: configuration, listeners: listenerOutputs))
        loopWake = try WakePipe.make()
        runner = SampleRunner(hub: hub, loopWake: loopWake, wake: sampleWake, source: source, log: log)
        signals = try SignalPipe()
        nmea = try NMEAOutput(configuration.nmea, maxClients: configuration.limits.maxNetworkClients, acceptGuard: acceptGuard, log: log)
        if case .gpsd(let endpoint) = heading.position { gpsd = GPSDClient(endpoint: endpoint) }
        do {
            try listeners.update(configuration)
            try startListenerThreads(configuration)
        } catch {
            stopListenerThreads()
            listeners.closeAll()
            nmea.closeAll()
            throw error
        }
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
        log.notice("ready: \(describeSource()); \((listeners.all.map(\.key) + listenerThreadNames).joined(separator: ", "))")
        var fds: [pollfd] = []
        var slots: [Slot] = []
        while true {
            let now = Clock.monotonic()
            if now >= nextTick { tick(now: now) }
            position(gpsd?.tick(now: now)) // reconnect attempts follow their own back-off, not the 1 s tick
            var deadline = nextTick
            if polledPosition != nil { deadline = min(deadline, pollPosition(now: now)) }
            if nmea.hasConsumers { deadline = min(deadline, nmea.tick(now: now) { hub.withLock { $0.processing.latestHeadingAndTilt(now: now) } }) }
            if let poll = hub.withLock({ $0.clients.earliestPollDeadline }) {
                if poll <= now { hub.withLock { $0.expirePolls(now: now) } } else { deadline = min(deadline, poll) }
            }
            if let t = gpsd?.nextAttempt { deadline = min(deadline, max(t, now)) }
            if acceptGuard.isResting(now: now) { deadline = min(deadline, acceptGuard.restingUntil) }
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
                case .listener(let fd, let origin): accept(fd, origin: origin)
                case .nmeaListener(let fd): nmea.accept(fd, now: Clock.monotonic())
                case .nmeaConsumer(let fd):
                    if p.revents & Int16(POLLOUT) != 0 { nmea.writable(fd) }
                    if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { nmea.readable(fd) }
                case .gpsd:
                    position(gpsd?.handle(events: p.revents, now: Clock.monotonic()))
                case .client(let fd):
                    serve(fd: fd, events: p.revents)
                }
            }
            closeFailedClients()
            saveRegions()
            let (fatal, ended) = hub.withLock { ($0.status.fatalError, $0.status.sourceEnded) }
            if let fatal { return shutdown(.failed(fatal)) }
            if ended { return shutdown(.sourceEnded) }
            updateDemand()
        }
    }

    private enum Slot {
        case signals, wake, gpsd
        case listener(Int32, ClientOrigin), nmeaListener(Int32), nmeaConsumer(Int32), client(Int32)
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
        // Out of descriptors: the listeners rest (AcceptGuard) instead of waking the loop at once.
        if !acceptGuard.isResting(now: Clock.monotonic()) {
            for l in listeners.all { add(l.fd, POLLIN, .listener(l.fd, l.origin)) }
            for fd in nmea.listeners { add(fd, POLLIN, .nmeaListener(fd)) }
        }
        for c in nmea.consumers { add(c.fd, (c.isSerial ? 0 : POLLIN) | (c.outbox.isEmpty ? 0 : POLLOUT), .nmeaConsumer(c.fd)) }
        if let g = gpsd, let fd = g.fd { add(fd, g.wantsWritable ? POLLOUT : POLLIN, .gpsd) }
        let clients = hub.withLock { s in s.clients.clients.map { ($0.fd, !$0.outbox.isEmpty) } }
        for (fd, pending) in clients { add(fd, POLLIN | (pending ? POLLOUT : 0), .client(fd)) }
    }

    /// Once a second (and at start): gpsd connection, fix ages and declination, idle clients, watchdog.
    private func tick(now: Double) {
        nextTick = now + 1
        position(gpsd?.tick(now: now))
        let timeout = configuration.limits.idleTimeout
        for line in hub.withLock({ $0.clients.expireIdle(now: now, timeout: timeout) }) { log.info(line) }
        nmea.expireStalled(now: now, timeout: timeout)
        let events = hub.withLock { $0.refreshTrueNorth(wall: Clock.wall()) }
        logTrueNorth(events)
        if let interval = notifier.watchdogInterval, now >= nextWatchdog {
            notifier.notify("WATCHDOG=1")
            nextWatchdog = now + interval
            nextTick = min(nextTick, nextWatchdog)
        }
    }

    /// Hands the position source's updates to both halves (under the lock) and logs what people should know.
    private func position(_ updates: [PositionUpdate]?) {
        guard let updates, !updates.isEmpty else { return }
        if let endpoint = gpsd?.endpoint {
            for u in updates {
                switch u {
                case .link(let problem?): log.warning("gpsd at \(endpoint): \(problem); retrying (back-off up to 30 s)")
                case .link(nil): log.info("connected to gpsd at \(endpoint)")
                case .message(let text): log.warning(text)
                case .fix, .fixLost: break
                }
            }
        }
        let wall = Clock.wall(), now = Clock.monotonic()
        let heading = configuration.heading.position
        let (events, messages) = hub.withLock { s -> ([HeadingEvent], [String]) in
            let events = heading.isLive ? updates.flatMap { s.positionUpdated($0, wall: wall) } : []
            return (events, s.locationUpdated(updates, wall: wall, now: now))
        }
        logTrueNorth(events)
        for m in messages where gpsd == nil { log.warning(m) }
    }

    /// Polls the replayed or fixed position source; returns when to poll next.
    private func pollPosition(now: Double) -> Double {
        guard var source = polledPosition else { return .infinity }
        let updates = source.poll(now: now)
        polledPosition = source
        position(updates)
        if source.hasEnded, !reportedPositionEnd {
            reportedPositionEnd = true
            log.notice("\(source.name) has no more fixes")
            hub.withLock { $0.locationSourceEnded(source.name, wall: Clock.wall()) }
        }
        return source.hasEnded ? .infinity : now + PositionFeed.interval
    }

    /// Writes the regions after a change, outside the lock; a failure is logged and told to
    /// region watchers, and the regions stay in force in memory.
    private func saveRegions() {
        guard let (regions, path, settings) = hub.withLock({ $0.location.takeRegionsToSave() }) else { return }
        do {
            try RegionFile.save(regions, to: path, settings: settings)
        } catch {
            log.error("\(error); the regions stay in force until the service stops")
            let event = ServiceEvent("regionsNotSaved", reason: "writeFailed", "\(error)")
            hub.withLock { s in
                for c in s.clients.clients where c.watching && c.location.regions { s.clients.reply(c) { ProtocolMessages.event($0, event, time: Clock.wall()) } }
            }
        }
    }

    private func logTrueNorth(_ events: [HeadingEvent]) {
        for e in events { log.info("\(e.name.rawValue): \(e.detail)") }
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
        switch configuration.heading.source {
        case .iio(let s): return "IIO sensors on \(s.uri) at \(s.rate) Hz"
        case .replay(let r): return "replaying \(r.path)" + (r.loop ? " in a loop" : "") + (r.speed.map { " at \($0)× speed" } ?? " as fast as possible")
        case .simulated(let s): return "a SIMULATED board (demo motion) at \(s.rate) Hz"
        }
    }

    // MARK: Clients

    /// Accepts the waiting clients of one listener, each within its listener's own limit.
    private func accept(_ listener: Int32, origin: ClientOrigin) {
        let limit = origin.limit(configuration.limits)
        while true {
            let now = Clock.monotonic()
            switch Sockets.acceptConnection(listener) {
            case .none:
                return
            case .exhausted(let e):
                acceptGuard.exhausted(listener, errno: e, message: ProtocolMessages.errorLine("the service is out of file descriptors; try again later"),
                                      what: "a client", now: now)
                return
            case .failed(let e):
                log.error("accepting a client failed: \(Sockets.errorText(e))")
                return
            case .connection(let fd, let peer):
                acceptGuard.accepted()
                let accepted = hub.withLock { s -> Bool in
                    guard s.clients.hasSlot(from: origin, limit: limit) else { return false }
                    _ = s.addClient(fd: fd, peer: peer, origin: origin, now: now)
                    return true
                }
                if accepted {
                    log.debug("client connected (\(peer))")
                } else {
                    refuse(fd, peer: peer, limit: limit, now: now)
                }
            }
        }
    }

    private func refuse(_ fd: Int32, peer: String, limit: Int, now: Double) {
        let text = Array(ProtocolMessages.errorLine("too many clients (\(limit)); try again later").utf8)
        _ = text.withUnsafeBytes { Sockets.send(fd, $0) }
        close(fd)
        let (shouldLog, leftOut) = refusals.admit(now: now)
        if shouldLog {
            log.warning(ThrottledWarning.text("refused a client (\(peer)): \(limit) clients already connected through its listener", leftOut: leftOut, interval: refusals.interval))
        }
    }

    private func serve(fd: Int32, events: Int16) {
        if events & Int16(POLLOUT) != 0 {
            let ok = hub.withLock { s -> Bool in
                guard let c = s.clients.client(fd: fd) else { return true }
                return s.clients.flush(c, wall: Clock.wall())
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
                        if let c = s.clients.client(fd: fd) { s.received(bytes, from: c, wall: wall, now: now) }
                    }
                }
                if n < readBuffer.count { return }
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            hub.withLock { s in s.clients.client(fd: fd)?.closing = true }
            return
        }
    }

    private func closeFailedClients() {
        let gone = hub.withLock { s -> [(Int32, String, Int)] in
            let failed = s.clients.clients.filter(\.closing)
            for c in failed { s.clients.remove(c) }
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
        let pending = hub.withLock { $0.processing.session.takeCalibrationUpdates() }
        for p in pending {
            let (event, fine) = p.save()
            if fine {
                log.notice("calibration updated by hard-iron tracking: \(event.detail)")
            } else {
                log.warning("calibration updated by hard-iron tracking: \(event.detail)")
            }
            hub.withLock { $0.clients.broadcast(ServiceEvent(event), wall: Clock.wall()) }
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
        var calibration: SessionCalibration?
        let sourceChanged: Bool
        do {
            new = try reloadConfiguration?() ?? old
            try new.validate()
            try DescriptorBudget.check(new)
            sourceChanged = new.heading.source != old.heading.source
                || new.heading.session.estimator.fusion != old.heading.session.estimator.fusion
            // A new source gets its profiles when the sample thread opens it; the same
            // source's are read again now, so that a bad one refuses the whole reload.
            if !sourceChanged {
                let devices = hub.withLock { $0.status.calibrationDevices }
                calibration = try SessionCalibration.load(new.heading.session.calibration, for: devices)
            }
            try nmea.update(new.nmea, maxClients: new.limits.maxNetworkClients)
            try listeners.update(new)
        } catch {
            log.error("SIGHUP: the configuration was not reloaded, the running one stays: \(error)")
            return
        }
        if new.http != old.http || new.dbus != old.dbus {
            log.warning("SIGHUP: the http and dbus settings take effect at the next start")
        }
        configuration = new
        if new.heading.position != old.heading.position {
            gpsd?.close()
            gpsd = nil
            polledPosition = nil
            reportedPositionEnd = false
            if case .gpsd(let e) = new.heading.position {
                gpsd = GPSDClient(endpoint: e)
            } else {
                do {
                    polledPosition = try new.heading.position.makeLocationSource(wallClock: Clock.wall())
                } catch {
                    log.error("SIGHUP: \(error); no position until it is fixed")
                }
            }
        }
        let notes = hub.withLock { s -> [String] in
            if let calibration { s.processing.session.reconfigure(settings: new.heading.session, calibration: calibration) }
            s.processing.reportsMotion = new.heading.position.isLive
            s.clients.defaultHeadingFilter = new.heading.session.headingFilter
            s.clients.limits = new.limits
            s.status.configuration = new.heading
            if sourceChanged { s.status.sourceGeneration += 1 }
            s.location.reload(new.location)
            return (calibration == nil ? [] : s.processing.session.notes) + [s.location.regionsNote]
        }
        if sourceChanged { runner.wake.signal() }
        for note in notes { log.info(note) }
        logTrueNorth(hub.withLock { $0.refreshTrueNorth(wall: Clock.wall()) })
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
        saveRegions()
        listeners.closeAll()
        nmea.closeAll()
        gpsd?.close()
        let wall = Clock.wall()
        hub.withLock { s in
            s.status.stopping = true
            s.clients.broadcast(reason, wall: wall)
        }
        runner.wake.signal()
        // Finish what is queued for each client, at most 2 s.
        let deadline = Clock.monotonic() + 2
        while Clock.monotonic() < deadline {
            let pending = hub.withLock { s in s.clients.clients.filter { !$0.closing && !$0.outbox.isEmpty }.map(\.fd) }
            if pending.isEmpty { break }
            var fds = pending.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            for p in fds where p.revents != 0 {
                hub.withLock { s in
                    if let c = s.clients.client(fd: p.fd) { _ = s.clients.flush(c, wall: wall) }
                }
            }
        }
        let all = hub.withLock { s -> [(Int32, String, Int)] in
            let list = s.clients.clients.map { ($0.fd, $0.name, $0.outbox.totalDroppedLines) }
            s.clients.removeAll()
            return list
        }
        for (fd, name, dropped) in all {
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
            if dropped > 0 { log.info("\(name): \(dropped) line(s) were dropped for it in all (it read too slowly)") }
        }
        stopListenerThreads()
        // Let the sample thread release the sensors (disables IIO buffers), at most 3 s.
        let stopBy = Clock.monotonic() + 3
        while !hub.withLock({ $0.status.runnerFinished }), Clock.monotonic() < stopBy {
            loopWake.wait(timeout: 0.1)
        }
        return outcome
    }
}
