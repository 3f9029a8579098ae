import LodestoneCalibrationStore
import LodestoneCore
import LodestoneNetwork
import LodestoneSession

/// Drives the source on its own thread: claims the sensors while someone
/// wants headings and releases them otherwise, and hands each sample to the
/// hub. Retries with back-off, fault and resume events and pacing are the
/// library's ``SourceRunner``, whose sleeps wake on the wake pipe.
///
/// While nobody watches it sleeps on its wake pipe: no sensor is read, no
/// CPU is used (the way iio-sensor-proxy claims and releases sensors).
final class SampleRunner: @unchecked Sendable {
    // @unchecked: `source` and `runner` are touched only by the runner's own thread
    // after `start()`; everything shared goes through `hub`.
    private let hub: Hub
    private let loopWake: WakePipe
    let wake: WakePipe
    private var source: any SessionSource
    private var runner: SourceRunner<SourceHandle>
    private let log: ServiceLog
    private var generation = 0

    /// `wake` wakes this thread (a change of demand, a reload, a stop).
    init(hub: Hub, loopWake: WakePipe, wake: WakePipe, source: any SessionSource, log: ServiceLog) {
        self.hub = hub
        self.loopWake = loopWake
        self.wake = wake
        self.source = source
        self.log = log
        runner = Self.runner(source, wake: wake)
        describe(source)
    }

    private static func runner(_ source: any SessionSource, wake: WakePipe) -> SourceRunner<SourceHandle> {
        SourceRunner(SourceHandle(source), settings: .init(pacing: source.pacing), clock: WakeClock(wake),
                     health: source as? any SensorHealthReporting)
    }

    func start() throws(ServiceError) {
        try SessionThread.start { [self] in run() }
    }

    private func describe(_ s: any SessionSource) {
        let (label, devices, identities) = (s.label, s.devices, s.calibrationDevices)
        hub.withLock { $0.describeSource(label: label, devices: devices, identities: identities) }
    }

    private func run() {
        // The source was opened at start-up (to report a bad device at once): release it
        // first thing unless someone already waits.
        var active = true
        var claimed = false
        defer {
            source.release()
            hub.withLock { $0.status.runnerFinished = true }
            loopWake.signal()
        }
        while true {
            let (stop, wanted, newGeneration, configuration) = hub.withLock {
                ($0.status.stopping, $0.demand, $0.status.sourceGeneration, $0.status.configuration)
            }
            if stop { return }
            if newGeneration != generation {
                generation = newGeneration
                reopen(configuration)
                active = false
            }
            guard wanted else {
                if active {
                    source.release()
                    hub.withLock { $0.status.activated = nil }
                    active = false
                    claimed = false
                    log.debug("nobody watches: sensors released")
                }
                wake.wait(timeout: nil)
                continue
            }
            if !active || !claimed {
                active = true
                claimed = true
                runner.resetPacing()
                let wall = Clock.wall()
                hub.withLock {
                    $0.processing.resume()
                    $0.status.activated = wall
                }
                log.debug("sensors claimed")
            }
            guard feed() else { return }
            // Out of the loop (nobody watches, a fault, another source): no gathered line waits.
            if hub.withLock({ $0.sendGathered(wall: Clock.wall()) }) { loopWake.signal() }
        }
    }

    /// Hands samples to the hub while someone wants them; false when the runner must end.
    private func feed() -> Bool {
        while true {
            switch runner.next() {
            case .sample(let s):
                let wall = Clock.wall(), now = Clock.monotonic()
                let more = source.hasQueuedSample
                let outcome = hub.withLock { $0.process(s, wall: wall, now: now, more: more) }
                if outcome.wakeLoop { loopWake.signal() }
                if outcome.stop { return false }
                if outcome.sourceGeneration != generation || !outcome.demand { return true } // reopen, or release
            case .event(let e):
                event(e)
                if e.name == .sourceFault { return true } // look at demand and stop while retrying
            case .interrupted:
                return true
            case .ended:
                ended()
                return false
            case .failed(let error):
                fail(error)
                return false
            }
        }
    }

    private func event(_ e: HeadingEvent) {
        let wall = Clock.wall()
        switch e.name {
        case .sourceFault:
            log.warning("source fault: \(e.detail); retrying")
            hub.withLock { $0.report(ServiceEvent(e), wall: wall) }
        case .sourceResumed:
            log.notice("the source works again")
            hub.withLock { $0.report(nil, resumed: ServiceEvent(e), wall: wall) }
        default:
            log.warning("\(e.name.rawValue): \(e.detail)")
            hub.withLock { $0.clients.broadcast(ServiceEvent(e), wall: wall) }
        }
        loopWake.signal()
    }

    private func ended() {
        let event = ServiceEvent(HeadingEvent(.sourceEnded, .endOfLog, "the \(source.label) source ended"))
        hub.withLock {
            $0.status.sourceEnded = true
            $0.status.sourceProblem = event
            $0.clients.broadcast(event, wall: Clock.wall())
        }
        loopWake.signal()
    }

    private func fail(_ error: ServiceError) {
        let event = ServiceEvent(HeadingEvent(.sourceFailed, .fatal, error.description))
        hub.withLock {
            $0.status.fatalError = error
            $0.status.sourceProblem = event
            $0.clients.broadcast(event, wall: Clock.wall())
        }
        loopWake.signal()
    }

    /// A reload changed the source: open the new one and load the calibration profiles
    /// for its devices; keep the old source and profiles if either fails.
    private func reopen(_ configuration: HeadingConfiguration) {
        let fresh: any SessionSource
        let calibration: SessionCalibration
        do {
            fresh = try SessionSources.open(configuration.source, fusion: configuration.session.estimator.fusion)
        } catch {
            log.error("reload: cannot open the new source, keeping the old one: \(error)")
            return
        }
        do {
            try configuration.session.check(hasGyroscope: fresh.hasGyroscope)
            calibration = try SessionCalibration.load(configuration.session.calibration, for: fresh.calibrationDevices)
        } catch {
            fresh.release()
            log.error("reload: the new source's settings or calibration cannot be used, keeping the old source: \(error)")
            return
        }
        source.release()
        source = fresh
        runner = Self.runner(fresh, wake: wake)
        describe(fresh)
        let notes = hub.withLock { h -> [String] in
            h.processing.session.reconfigure(settings: configuration.session, calibration: calibration)
            h.status.sourceProblem = nil
            h.status.sourceEnded = false
            return h.processing.session.notes
        }
        log.notice("source is now \(fresh.label)")
        for note in notes { log.info(note) }
    }
}

/// The runner's source: the service's source of the moment, read on the runner's thread.
struct SourceHandle: SensorSource {
    var source: any SessionSource

    init(_ source: any SessionSource) {
        self.source = source
    }

    mutating func nextSample() throws -> SensorSample? {
        try source.nextSample()
    }
}

/// The runner's clock: its sleeps end early when the wake pipe is signalled (a
/// reload, a change of demand, a stop), so that the sample thread looks at them.
struct WakeClock: SessionClock {
    let wake: WakePipe

    init(_ wake: WakePipe) {
        self.wake = wake
    }

    func monotonic() -> Double { Clock.monotonic() }
    func wall() -> Double { Clock.wall() }
    func sleep(_ seconds: Double) -> Bool { !wake.wait(timeout: seconds) }
}
