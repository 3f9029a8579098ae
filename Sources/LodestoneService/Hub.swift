import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs
import Synchronization

/// The state shared by the sample thread and the event loop, behind one lock.
///
/// The sample thread calls ``HubState/process(_:wall:now:)`` once per
/// sample: the estimator runs once, then each watching client's own
/// headingFilter decides whether it gets this heading. The HEADING line is
/// encoded at most once per sample and written with non-blocking sends, so
/// the lock is held for microseconds and no client can stall the thread.
/// The event loop holds the same lock while it serves client commands.
final class Hub: Sendable {
    let state: Mutex<HubState>

    init(_ state: sending HubState) {
        self.state = Mutex(state)
    }

    func withLock<R>(_ body: (HubState) throws -> sending R) rethrows -> sending R {
        try state.withLock { s in try body(s) }
    }
}

/// What the sample thread reports after a sample.
struct ProcessOutcome {
    /// The event loop must look at a client (pending output or a failed socket).
    var wakeLoop = false
    /// Someone still wants headings.
    var demand = true
    var stop = false
    /// ``HubState/sourceGeneration``: a reload asked for another source when it changed.
    var sourceGeneration = 0
}

final class HubState {
    let release: String
    var pipeline: HeadingPipeline
    /// Estimator settings without the calibration, which ``calibration`` adds.
    var settings: HeadingEstimator.Settings
    /// The profiles applied: the magnetometer's through the estimator, the accelerometer's to each sample.
    private(set) var calibration: ServiceCalibration
    /// How profiles are chosen, for a reload that opens another source (the sample thread loads them).
    var calibrationChoice: CalibrationChoice
    /// The identity of the source's sensors (set by the sample thread), to find their profiles again.
    var calibrationDevices = SourceDevices()
    var defaultHeadingFilter: Double
    var limits: ServiceConfiguration.Limits
    var clients: [ClientSession] = []
    private var nextClientID = 1

    /// Set by the event loop from ``TrueNorthTracker``.
    var position: TrueNorthTracker.Position?
    var trueNorthStatus = ServiceEvent("trueHeadingUnavailable", reason: "noPosition", TrueNorthTracker.noPosition)
    /// Speed and course are sent when the position comes from gpsd.
    var reportsMotion = false

    /// NMEA output has consumers (TCP clients or a serial device).
    var nmeaDemand = false
    var stopping = false

    // Set by the sample thread.
    var sourceLabel = ""
    var devices: [DeviceDescription] = []
    /// Nil while the source works; else the event that says what is wrong.
    var sourceStatus: ServiceEvent?
    var sourceEnded = false
    var fatalError: ServiceError?
    var runnerFinished = false
    /// Bumped by a reload that changes the source; the sample thread reopens it.
    var sourceGeneration = 0
    var sourceConfiguration: ServiceConfiguration.Source

    /// Online hard-iron tracking (`autoCalibrate`), fed every sample's raw field; it
    /// starts again from each new ``calibration``.
    private(set) var autoCalibration: ServiceAutoCalibration?
    var autoCalibrate: Bool {
        didSet { if autoCalibrate != oldValue { restartTracking() } }
    }
    /// Updates it adopted, for the event loop to save and announce.
    private var calibrationUpdates: [ServiceAutoCalibration.Pending] = []

    private(set) var latest: Heading?
    private(set) var latestWall = 0.0
    private(set) var latestMonotonic = -Double.infinity
    private(set) var samplesProcessed = 0

    private let line = JSONLineBuilder(capacity: 4096)
    private let steerLine = JSONLineBuilder(capacity: 4096)
    private let replyLine = JSONLineBuilder(capacity: 4096)

    init(release: String, settings: HeadingEstimator.Settings, calibration: ServiceCalibration, calibrationChoice: CalibrationChoice,
         autoCalibrate: Bool, headingFilter: Double, limits: ServiceConfiguration.Limits, source: ServiceConfiguration.Source) {
        self.release = release
        self.settings = settings
        self.calibration = calibration
        self.calibrationChoice = calibrationChoice
        self.autoCalibrate = autoCalibrate
        pipeline = HeadingPipeline(settings: settings, headingFilter: 0)
        defaultHeadingFilter = headingFilter
        self.limits = limits
        sourceConfiguration = source
        restartTracking()
    }

    /// Hard-iron tracking from the calibration in use, when it is on.
    private func restartTracking() {
        autoCalibration = autoCalibrate ? calibration.autoCalibration : nil
    }

    /// Whether the sensors must be read: a watcher, a pending poll, or NMEA consumers.
    var demand: Bool {
        guard !stopping else { return false }
        if nmeaDemand { return true }
        for c in clients where !c.closing && (c.watching || c.pollDeadline != nil) { return true }
        return false
    }

    var watcherCount: Int { clients.reduce(0) { $0 + ($1.watching && !$1.closing ? 1 : 0) } }

    // MARK: Sample thread

    /// Called when the sensors are claimed again after an idle period: a fresh
    /// start of the smoothing (the old state is stale).
    func resume() {
        needsStart = true
        latest = nil
    }

    /// The estimator is made at the first sample after a claim, when the wall
    /// clock of sample time 0 is known (for the calibration's age).
    private var needsStart = true
    /// The field the model expects here, kept across estimator restarts.
    private var expectedField: ExpectedField?

    func setExpectedField(_ field: ExpectedField?) {
        guard field != expectedField else { return }
        expectedField = field
        pipeline.setExpectedField(field)
    }

    /// Longest a gathered line waits for the samples that follow it, seconds.
    static let maximumGathering = 0.002
    /// Monotonic time of the oldest line gathered and not yet sent.
    private var gatheringSince: Double?

    /// Runs one sample through the estimator and sends its lines to the clients whose
    /// filter passes. With `more` (the next sample is ready: the rest of a buffer refill)
    /// the lines are gathered per client and sent with the last sample of the burst, one
    /// write per client; a line never waits longer than ``maximumGathering``.
    func process(_ sample: SensorSample, wall: Double, now: Double, more: Bool = false) -> ProcessOutcome {
        let gather = more && now - (gatheringSince ?? now) < Self.maximumGathering
        var outcome = handle(sample, wall: wall, now: now, gather: gather)
        if gather {
            if gatheringSince == nil { gatheringSince = now }
        } else if sendGathered(wall: wall) {
            outcome.wakeLoop = true
        }
        return outcome
    }

    private func handle(_ sample: SensorSample, wall: Double, now: Double, gather: Bool) -> ProcessOutcome {
        var outcome = ProcessOutcome()
        outcome.sourceGeneration = sourceGeneration
        guard !stopping else {
            outcome.stop = true
            outcome.demand = false
            return outcome
        }
        samplesProcessed &+= 1
        if needsStart {
            var start = settings
            calibration.apply(to: &start)
            start.wallClockStart = wall - sample.time
            start.expectedField = expectedField
            pipeline.estimator = HeadingEstimator(settings: start)
            needsStart = false
        }
        if autoCalibration != nil,
           let adoption = autoCalibration!.calibration.add(sample.magneticField, time: sample.time, unixTime: wall) {
            pipeline.replaceCalibration(adoption.calibration, status: adoption.status)
            // Kept for the estimator made at the next claim of the sensors.
            calibration.adopt(adoption)
            calibrationUpdates.append(.init(adoption: adoption, path: autoCalibration!.path))
            outcome.wakeLoop = true
        }
        var sample = sample
        if let a = calibration.accelerometer { sample.acceleration = a.apply(sample.acceleration) }
        let step = pipeline.step(sample)
        if let events = step.events {
            for e in events { broadcast(Self.event(e), wall: wall) }
        }
        guard let (estimate, heading) = step.result else {
            outcome.demand = demand
            return outcome
        }
        latest = heading
        latestWall = wall
        latestMonotonic = now
        var encoded = false
        var anyDemand = nmeaDemand
        for c in clients where !c.closing {
            if c.watching {
                anyDemand = true
                if c.filter.shouldDeliver(estimate.direction) {
                    if !encoded {
                        encodeHeading(heading, wall: wall)
                        encoded = true
                    }
                    if gather {
                        c.gather(line.bytes)
                    } else if c.send(line.bytes) {
                        outcome.wakeLoop = true
                    }
                    if c.steering != nil, sendSteer(c, heading: heading, wall: wall, gather: gather) { outcome.wakeLoop = true }
                }
            }
            if c.pollDeadline != nil {
                if !encoded {
                    encodeHeading(heading, wall: wall)
                    encoded = true
                }
                answerPoll(c, wall: wall, headingLine: true)
                if c.closing { outcome.wakeLoop = true }
            }
        }
        outcome.demand = anyDemand
        return outcome
    }

    private func encodeHeading(_ h: Heading, wall: Double) {
        line.removeAll()
        ProtocolMessages.heading(line, h, time: wall,
                                 motion: reportsMotion ? .init(speed: position?.speed, course: position?.course) : nil)
    }

    private func sendSteer(_ c: ClientSession, heading: Heading, wall: Double, gather: Bool) -> Bool {
        steerLine.removeAll()
        guard c.steering!.encode(into: steerLine, heading: heading, position: position, time: wall) else { return false }
        if gather {
            c.gather(steerLine.bytes)
            return false
        }
        return c.send(steerLine.bytes)
    }

    /// Writes the lines gathered for each client (as the event loop writes queued output).
    /// Returns true when the event loop must look at a client (output left pending, or a
    /// failed socket).
    func sendGathered(wall: Double) -> Bool {
        gatheringSince = nil
        var wake = false
        for c in clients where c.gathered {
            c.gathered = false
            if !flush(c, wall: wall) || !c.outbox.isEmpty { wake = true }
        }
        return wake
    }

    /// Sends the POLL answer (with the HEADING in `line` when `headingLine`) and clears the poll.
    private func answerPoll(_ c: ClientSession, wall: Double, headingLine: Bool) {
        replyLine.removeAll()
        if headingLine {
            ProtocolMessages.poll(replyLine, time: wall, active: watcherCount, headingLine: line.bytes)
        } else {
            ProtocolMessages.poll(replyLine, time: wall, active: watcherCount, headingLine: nil)
        }
        c.pollDeadline = nil
        _ = c.send(replyLine.bytes)
    }

    // MARK: Event loop

    func addClient(fd: Int32, peer: String) -> ClientSession {
        let c = ClientSession(id: nextClientID, fd: fd, peer: peer, limits: limits, headingFilter: defaultHeadingFilter)
        nextClientID += 1
        clients.append(c)
        reply(c) { ProtocolMessages.version($0, release: release) }
        return c
    }

    func remove(_ c: ClientSession) {
        clients.removeAll { $0 === c }
    }

    func client(fd: Int32) -> ClientSession? {
        clients.first { $0.fd == fd }
    }

    /// Encodes one reply with `body` and sends it to `c` (queued behind anything pending).
    func reply(_ c: ClientSession, _ body: (JSONLineBuilder) -> Void) {
        replyLine.removeAll()
        body(replyLine)
        _ = c.send(replyLine.bytes)
    }

    /// Handles bytes read from a client: splits lines, runs commands, answers.
    func received(_ bytes: UnsafeRawBufferPointer, from c: ClientSession, wall: Double, now: Double) {
        var commands: [Result<ClientCommand?, ClientCommand.Failure>] = []
        c.input.feed(bytes) { item, text in
            switch item {
            case .tooLong:
                commands.append(.failure(.init("command line longer than \(limits.maxLineLength) bytes; skipped")))
            case .line:
                commands.append(Result { () throws(ClientCommand.Failure) in try ClientCommand.parse(text) })
            }
        }
        for command in commands {
            switch command {
            case .failure(let f): reply(c) { ProtocolMessages.error($0, f.message) }
            case .success(nil): break
            case .success(let command?): run(command, for: c, wall: wall, now: now)
            }
        }
    }

    private func run(_ command: ClientCommand, for c: ClientSession, wall: Double, now: Double) {
        switch command {
        case .version:
            reply(c) { ProtocolMessages.version($0, release: release) }
        case .watch(let w):
            let threshold = w.headingFilter ?? (c.watching ? c.filter.threshold : defaultHeadingFilter)
            c.filter = HeadingFilter(threshold: threshold)
            c.watching = w.enable
            reply(c) { ProtocolMessages.watch($0, enable: w.enable, headingFilter: threshold) }
            if w.enable {
                reply(c) { ProtocolMessages.event($0, trueNorthStatus, time: wall) }
                if let status = sourceStatus {
                    reply(c) { ProtocolMessages.event($0, status, time: wall) }
                }
            }
        case .poll:
            if let h = latest, now - latestMonotonic < 1 {
                line.removeAll()
                ProtocolMessages.heading(line, h, time: latestWall,
                                         motion: reportsMotion ? .init(speed: position?.speed, course: position?.course) : nil)
                answerPoll(c, wall: wall, headingLine: true)
            } else if sourceEnded || fatalError != nil {
                reply(c) { ProtocolMessages.error($0, "?POLL: no heading: \(sourceStatus?.detail ?? "the source ended")") }
            } else {
                // Claims the sensors until a heading arrives (or the deadline passes).
                c.pollDeadline = now + Self.pollTimeout
            }
        case .devices:
            reply(c) { ProtocolMessages.devices($0, source: sourceLabel, devices: devices) }
        case .steer(nil):
            c.steering = nil
            reply(c) { ProtocolMessages.event($0, ServiceEvent("steerStopped", reason: "clientRequest", "steering stopped at the client's request"), time: wall) }
        case .steer(let request?):
            do {
                c.steering = try ClientSteering(request)
            } catch {
                reply(c) { ProtocolMessages.error($0, error.message) }
                return
            }
            if let h = latest, now - latestMonotonic < 1, !c.closing {
                steerLine.removeAll()
                if c.steering!.encode(into: steerLine, heading: h, position: position, time: wall) {
                    _ = c.send(steerLine.bytes)
                }
            }
            if position == nil {
                reply(c) { ProtocolMessages.event($0, ServiceEvent("steerUnavailable", reason: trueNorthStatus.reason, "no position yet: STEER objects follow once it is known (\(trueNorthStatus.detail))"), time: wall) }
            }
        }
    }

    static let pollTimeout = 2.0

    /// Answers polls that waited too long with an ERROR.
    func expirePolls(now: Double) {
        for c in clients where c.pollDeadline.map({ $0 <= now }) == true {
            c.pollDeadline = nil
            let why = sourceStatus?.detail ?? "the sensors gave no heading in \(Int(Self.pollTimeout)) s"
            reply(c) { ProtocolMessages.error($0, "?POLL: no heading: \(why)") }
        }
    }

    var earliestPollDeadline: Double? {
        clients.compactMap(\.pollDeadline).min()
    }

    /// Sends an event to every watching client.
    func broadcast(_ event: ServiceEvent, wall: Double) {
        replyLine.removeAll()
        ProtocolMessages.event(replyLine, event, time: wall)
        for c in clients where c.watching { _ = c.send(replyLine.bytes) }
    }

    /// Writes a client's queued output; once it is all out, tells the client how many lines it lost.
    /// Returns false when the client failed.
    func flush(_ c: ClientSession, wall: Double) -> Bool {
        guard c.flush() else { return false }
        if c.outbox.isEmpty, c.outbox.droppedLines > 0 {
            let n = c.outbox.takeDroppedCount()
            reply(c) { ProtocolMessages.dropped($0, count: n, limit: limits.clientQueueBytes, time: wall) }
        }
        return !c.closing
    }

    /// The latest heading for NMEA output, if one arrived within `maximumAge` seconds.
    func latestHeading(now: Double, maximumAge: Double) -> Heading? {
        guard let h = latest, now - latestMonotonic <= maximumAge else { return nil }
        return h
    }

    /// Hands the adopted calibration updates to the event loop.
    func takeCalibrationUpdates() -> [ServiceAutoCalibration.Pending] {
        defer { calibrationUpdates.removeAll() }
        return calibrationUpdates
    }

    /// Applies a new declination from the event loop.
    func setDeclination(_ d: Declination?) {
        pipeline.declination = d
    }

    /// New estimator settings (reload): the smoothing starts again.
    func setSettings(_ s: HeadingEstimator.Settings) {
        settings = s
        needsStart = true
    }

    /// New calibration profiles (reload): the smoothing starts again.
    func setCalibration(_ c: ServiceCalibration) {
        calibration = c
        restartTracking()
        needsStart = true
    }

    static func event(_ e: MagneticEvent) -> ServiceEvent {
        switch e {
        case .calibrationNeeded(let reason, let detail):
            return ServiceEvent("calibrationNeeded", reason: reason.rawValue, detail)
        case .disturbanceStarted(let reason, let detail):
            return ServiceEvent("magneticDisturbance", reason: reason.rawValue, detail, state: "start")
        case .disturbanceEnded(let detail):
            return ServiceEvent("magneticDisturbance", reason: "fieldNormal", detail, state: "end")
        }
    }
}

extension HeadingPipeline {
    /// One sample through the estimator, completed into a ``Heading`` when there is an
    /// estimate, plus any magnetic events. Mutating, so that it runs in place on the
    /// hub's copy: a non-mutating call on a class's stored struct copies the struct.
    mutating func step(_ sample: SensorSample) -> (result: (HeadingEstimate, Heading)?, events: [MagneticEvent]?) {
        let estimate = estimator.update(sample)
        let events = estimator.hasEvents ? estimator.takeEvents() : nil
        guard let estimate else { return (nil, events) }
        return ((estimate, complete(estimate)), events)
    }
}
