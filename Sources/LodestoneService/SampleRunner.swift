import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs

/// Drives the source on its own thread: claims the sensors while someone
/// wants headings and releases them otherwise, paces replays, retries
/// transient faults with back-off, and hands each sample to the hub.
///
/// While nobody watches it sleeps on its wake pipe: no sensor is read, no
/// CPU is used (the way iio-sensor-proxy claims and releases sensors).
final class SampleRunner: @unchecked Sendable {
    // @unchecked: `source` and the pacing state are touched only by the runner's
    // own thread after `start()`; everything shared goes through `hub`.
    private let hub: Hub
    private let loopWake: WakePipe
    let wake = try! WakePipe()
    private var source: any ServiceSource
    private let fusion: FusionMode
    private let log: ServiceLog
    private var generation = 0

    init(hub: Hub, loopWake: WakePipe, source: any ServiceSource, fusion: FusionMode, log: ServiceLog) {
        self.hub = hub
        self.loopWake = loopWake
        self.source = source
        self.fusion = fusion
        self.log = log
        let (label, devices, identities) = (source.label, source.devices, source.calibrationDevices)
        hub.withLock {
            $0.sourceLabel = label
            $0.devices = devices
            $0.calibrationDevices = identities
        }
    }

    func start() throws(ServiceError) {
        _ = try ServiceThread.start { [self] in run() }
    }

    private func run() {
        // The source was opened at start-up (to report a bad device at once): release it
        // first thing unless someone already waits.
        var active = true
        var anchor: (monotonic: Double, time: Double)?
        var backoff = 0.1
        var faulted = false
        var demand = false
        var resumed = false
        defer {
            source.release()
            hub.withLock { $0.runnerFinished = true }
            loopWake.signal()
        }
        while true {
            let (stop, wanted, newGeneration, sourceConfiguration, calibrationChoice) = hub.withLock {
                ($0.stopping, $0.demand, $0.sourceGeneration, $0.sourceConfiguration, $0.calibrationChoice)
            }
            if stop { return }
            if newGeneration != generation {
                generation = newGeneration
                reopen(sourceConfiguration, calibration: calibrationChoice)
                active = false
            }
            demand = wanted
            if !demand {
                if active {
                    source.release()
                    active = false
                    resumed = false
                    log.debug("nobody watches: sensors released")
                }
                wake.wait(timeout: nil)
                continue
            }
            if !active || !resumed {
                active = true
                resumed = true
                anchor = nil
                hub.withLock { $0.resume() }
                log.debug("sensors claimed")
            }
            while demand {
                let sample: SensorSample?
                do {
                    sample = try source.next()
                    if faulted {
                        faulted = false
                        backoff = 0.1
                        log.notice("the source works again")
                        report(nil, wall: Clock.wall())
                    }
                } catch let error as any SensorSourceError where error.isTransient {
                    if !faulted { log.warning("source fault: \(error); retrying") }
                    faulted = true
                    report(ServiceEvent("sourceFault", reason: "transient", "\(error); retrying in \(backoff) s"), wall: Clock.wall())
                    wake.wait(timeout: backoff)
                    backoff = min(backoff * 2, 5)
                    break
                } catch let error as LogError {
                    fail(ServiceError(error.kind == .cannotOpen ? .inaccessible : .badInput, error.description))
                    return
                } catch {
                    fail(ServiceError(.failure, "\(error)"))
                    return
                }
                guard let s = sample else {
                    let detail = "the \(source.label) source ended"
                    hub.withLock {
                        $0.sourceEnded = true
                        $0.sourceStatus = ServiceEvent("sourceEnded", reason: "endOfLog", detail)
                        $0.broadcast($0.sourceStatus!, wall: Clock.wall())
                    }
                    loopWake.signal()
                    return
                }
                if let speed = source.pacing {
                    let now = Clock.monotonic()
                    // Pace by log time; start again after a pause or a jump back.
                    if let a = anchor, s.time >= a.time {
                        let due = a.monotonic + (s.time - a.time) / speed
                        if due > now + 0.0005 {
                            if wake.wait(timeout: due - now) {
                                // Woken: re-check demand and stop before using the sample.
                                let (stop, wanted) = hub.withLock { ($0.stopping, $0.demand) }
                                if stop { return }
                                if !wanted { demand = false; break }
                            }
                        } else if now - due > 1 {
                            anchor = (now, s.time) // fell behind by more than a second: do not race to catch up
                        }
                    } else {
                        anchor = (now, s.time)
                    }
                }
                let wall = Clock.wall(), now = Clock.monotonic()
                let more = source.hasQueuedSample
                let outcome = hub.withLock { $0.process(s, wall: wall, now: now, more: more) }
                if outcome.wakeLoop { loopWake.signal() }
                if outcome.stop { return }
                if outcome.sourceGeneration != generation { break } // reopen first
                demand = outcome.demand
            }
            // Out of the loop (nobody watches, a fault, another source): no gathered line waits.
            if hub.withLock({ $0.sendGathered(wall: Clock.wall()) }) { loopWake.signal() }
        }
    }

    private func report(_ status: ServiceEvent?, wall: Double) {
        hub.withLock {
            let changed = $0.sourceStatus?.reason != status?.reason
            $0.sourceStatus = status
            if changed { $0.broadcast(status ?? ServiceEvent("sourceResumed", reason: "recovered", "the source works again"), wall: wall) }
        }
        loopWake.signal()
    }

    private func fail(_ error: ServiceError) {
        hub.withLock {
            $0.fatalError = error
            $0.sourceStatus = ServiceEvent("sourceFailed", reason: "fatal", error.description)
            $0.broadcast($0.sourceStatus!, wall: Clock.wall())
        }
        loopWake.signal()
    }

    /// A reload changed the source: open the new one and load the calibration profiles
    /// for its devices; keep the old source and profiles if either fails.
    private func reopen(_ configuration: ServiceConfiguration.Source, calibration choice: CalibrationChoice) {
        let fresh: any ServiceSource
        let calibration: ServiceCalibration
        do {
            fresh = try ServiceSources.make(configuration, fusion: fusion)
        } catch {
            log.error("reload: cannot open the new source, keeping the old one: \(error)")
            return
        }
        do {
            calibration = try ServiceCalibration.load(choice, for: fresh.calibrationDevices)
        } catch {
            fresh.release()
            log.error("reload: the new source's calibration cannot be used, keeping the old source: \(error)")
            return
        }
        source.release()
        source = fresh
        let (label, devices, identities) = (fresh.label, fresh.devices, fresh.calibrationDevices)
        let tracking = hub.withLock {
            $0.sourceLabel = label
            $0.devices = devices
            $0.calibrationDevices = identities
            $0.setCalibration(calibration)
            $0.sourceStatus = nil
            $0.sourceEnded = false
            return $0.autoCalibrate
        }
        log.notice("source is now \(label)")
        for note in calibration.notes { log.info(note) }
        if tracking { log.info(calibration.autoCalibration.startNote) }
    }
}
