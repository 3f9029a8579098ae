import LodestoneCore
import LodestoneLogs
import LodestonePosition
import LodestoneSession

/// The service's per-sample work: the ``HeadingSession`` runs once per sample,
/// then each watching client's own headingFilter decides whether it gets this
/// heading. The HEADING line is encoded at most once per sample and written with
/// non-blocking sends, so the hub's lock is held for microseconds and no client
/// can stall the sample thread.
final class SampleProcessing {
    var session: HeadingSession
    /// Speed and course go into HEADING objects when the position is live (gpsd).
    var reportsMotion: Bool
    private(set) var latest: Heading?
    private(set) var latestWall = 0.0
    private(set) var latestMonotonic = -Double.infinity
    private(set) var samplesProcessed = 0
    /// Whether the estimator's start-up transient is over, for `?POLL`.
    private(set) var settling = HeadingSettling()
    private let line = JSONLineBuilder(capacity: 4096)
    private let steerLine = JSONLineBuilder(capacity: 4096)
    private let liveLine = JSONLineBuilder(capacity: 4096)
    /// ATT and NMEA for gpsd clients.
    let gpsd = GPSDOutput()
    /// The D-Bus compass, and whether listeners with their own threads want samples.
    let listeners: ListenerOutputs
    /// Monotonic time of the oldest line gathered and not yet sent.
    private var gatheringSince: Double?

    /// Longest a gathered line waits for the samples that follow it, seconds.
    static let maximumGathering = 0.002

    init(session: HeadingSession, listeners: ListenerOutputs) {
        self.session = session
        self.listeners = listeners
        reportsMotion = session.settings.trueNorth.position.isLive
    }

    /// The sensors are claimed again after an idle period: the smoothing starts afresh
    /// (the old state is stale), from the wall clock of the next sample.
    func resume() {
        session.start(wallClockStart: nil)
        settling.restart()
        latest = nil
    }

    /// Runs one sample and sends its lines to the clients whose filter passes. With
    /// `more` (the next sample is ready: the rest of a buffer refill) the lines are
    /// gathered per client and sent with the last sample of the burst, one write per
    /// client; a line never waits longer than ``maximumGathering``.
    func process(_ sample: SensorSample, wall: Double, now: Double, more: Bool, clients: ClientRegistry,
                 otherDemand: Bool) -> ProcessOutcome {
        let gather = more && now - (gatheringSince ?? now) < Self.maximumGathering
        var outcome = handle(sample, wall: wall, now: now, gather: gather, clients: clients, otherDemand: otherDemand)
        if gather {
            if gatheringSince == nil { gatheringSince = now }
        } else if sendGathered(clients, wall: wall) {
            outcome.wakeLoop = true
        }
        return outcome
    }

    /// Writes what was gathered for each client; true when the event loop must look at one.
    func sendGathered(_ clients: ClientRegistry, wall: Double) -> Bool {
        gatheringSince = nil
        return clients.sendGathered(wall: wall)
    }

    private func handle(_ sample: SensorSample, wall: Double, now: Double, gather: Bool, clients: ClientRegistry,
                        otherDemand: Bool) -> ProcessOutcome {
        var outcome = ProcessOutcome()
        samplesProcessed &+= 1
        let estimate = session.estimate(sample)
        if session.hasEvents {
            for e in session.takeEvents() { clients.broadcast(ServiceEvent(e), wall: wall) }
        }
        if session.hasCalibrationUpdates { outcome.wakeLoop = true }
        guard let estimate else {
            outcome.demand = otherDemand || clients.wantSamples
            return outcome
        }
        let heading = session.complete(estimate)
        let settled = settling.observe(heading)
        latest = heading
        latestWall = wall
        latestMonotonic = now
        var encoded = false
        var anyDemand = otherDemand
        var context: GPSDMessages.Context?
        gpsd.begin()
        for c in clients.clients where !c.closing {
            if c.watching && c.location.headings {
                anyDemand = true
                var delivered = false
                if c.gpsd != nil {
                    let result = gpsd.deliver(to: c, heading, direction: estimate.direction, now: now, wall: wall, gather: gather) {
                        let made = context ?? gpsdContext(heading, sample: sample, clients: clients)
                        context = made
                        return made
                    }
                    if result.wakeLoop { outcome.wakeLoop = true }
                    delivered = result.delivered
                } else if c.filter.shouldDeliver(estimate.direction) {
                    if !encoded {
                        encodeHeading(heading, wall: wall)
                        encoded = true
                    }
                    if gather {
                        c.gather(line.bytes)
                    } else if c.send(line.bytes) {
                        outcome.wakeLoop = true
                    }
                    delivered = true
                }
                if delivered, c.steering != nil, sendSteer(c, heading: heading, wall: wall, gather: gather) { outcome.wakeLoop = true }
            }
            if c.pollDeadline != nil, settled {
                if !encoded {
                    encodeHeading(heading, wall: wall)
                    encoded = true
                }
                clients.answerPoll(c, wall: wall, headingLine: line.bytes, settled: true)
                if c.closing { outcome.wakeLoop = true }
            }
        }
        listeners.headingProduced(heading)
        if let live = clients.liveView, live.wantsHeading(now: now) { publishLive(live, heading, wall: wall, clients: clients) }
        outcome.demand = anyDemand
        return outcome
    }

    /// What an ATT needs beside the heading: the device, the attitude, the calibrated acceleration.
    private func gpsdContext(_ h: Heading, sample: SensorSample, clients: ClientRegistry) -> GPSDMessages.Context {
        let a = attitude(h)
        let acceleration = session.calibration.accelerometer?.apply(sample.acceleration) ?? sample.acceleration
        return GPSDMessages.Context(device: gpsd.device, attitude: a, acceleration: acceleration, angularRate: sample.angularRate,
                                    magnetometerStatus: .init(h, attitude: a, inForce: clients.inForce))
    }

    /// The live view's HEADING (at its own rate), the position when it changed, and the
    /// STEER of the client that asked last.
    private func publishLive(_ live: LiveViewPublisher, _ h: Heading, wall: Double, clients: ClientRegistry) {
        liveLine.removeAll()
        ProtocolMessages.heading(liveLine, h, attitude: attitude(h), time: wall, motion: motion)
        live.publishHeading(liveLine.bytes)
        live.positionChanged(session.trueNorth.position, source: session.settings.trueNorth.position.sourceName)
        let steering = clients.clients.filter { $0.steering != nil && !$0.closing }.max { $0.steeringOrder < $1.steeringOrder }
        liveLine.removeAll()
        if var s = steering?.steering, s.encode(into: liveLine, heading: h, position: session.trueNorth.position, time: wall) {
            live.publishSteer(liveLine.bytes)
        } else {
            live.publishSteer(nil)
        }
    }

    private func encodeHeading(_ h: Heading, wall: Double) {
        line.removeAll()
        ProtocolMessages.heading(line, h, attitude: attitude(h), time: wall, motion: motion)
    }

    /// Pitch, roll, dip and the expected field of `h`, for every output.
    func attitude(_ h: Heading) -> HeadingAttitude {
        HeadingAttitude(h, forward: session.settings.estimator.forwardAxis, expected: session.trueNorth.expectedField)
    }

    /// Speed and course of the live position, for HEADING objects.
    private var motion: ProtocolMessages.Motion? {
        guard reportsMotion else { return nil }
        let p = session.trueNorth.position
        return .init(speed: p?.speed, course: p?.course)
    }

    private func sendSteer(_ c: ClientSession, heading: Heading, wall: Double, gather: Bool) -> Bool {
        steerLine.removeAll()
        guard c.steering!.encode(into: steerLine, heading: heading, position: session.trueNorth.position, time: wall) else { return false }
        if gather {
            c.gather(steerLine.bytes)
            return false
        }
        return c.send(steerLine.bytes)
    }

    /// The latest heading, if one arrived within `maximumAge` seconds (NMEA, `?POLL`, `?STEER`).
    func latestHeading(now: Double, maximumAge: Double) -> Heading? {
        guard let h = latest, now - latestMonotonic <= maximumAge else { return nil }
        return h
    }

    /// The latest heading within a second and its tilt, for NMEA output.
    func latestHeadingAndTilt(now: Double) -> (Heading, Tilt)? {
        latestHeading(now: now, maximumAge: 1).map { ($0, attitude($0).tilt) }
    }

    /// Answers a `?POLL` with the latest heading when it is fresh and settled (or, with
    /// `settled` false, when the wait for a settled one timed out); false when there is none.
    func answerPoll(_ c: ClientSession, clients: ClientRegistry, now: Double, wall: Double, settled: Bool = true) -> Bool {
        guard let h = latestHeading(now: now, maximumAge: 1), !settled || settling.isSettled else { return false }
        line.removeAll()
        ProtocolMessages.heading(line, h, attitude: attitude(h), time: latestWall, motion: motion)
        clients.answerPoll(c, wall: wall, headingLine: line.bytes, settled: settled)
        return true
    }

    /// Sends `c` its first STEER at once when the position is known, with the latest heading
    /// when it is fresh (else `trueHeading` and `delta` are null).
    func sendFirstSteer(_ c: ClientSession, now: Double, wall: Double) {
        guard !c.closing else { return }
        let h = latestHeading(now: now, maximumAge: 1)
        steerLine.removeAll()
        if c.steering!.encode(into: steerLine, heading: h, position: session.trueNorth.position, time: wall) {
            _ = c.send(steerLine.bytes)
        }
    }
}

/// What the sample thread reports after a sample.
struct ProcessOutcome {
    /// The event loop must look at a client (pending output, a failed socket), or save a calibration update.
    var wakeLoop = false
    /// Someone still wants headings.
    var demand = true
    var stop = false
    /// ``ServiceStatus/sourceGeneration``: a reload asked for another source when it changed.
    var sourceGeneration = 0
}
