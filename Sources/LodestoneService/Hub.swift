import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs
import LodestonePosition
import LodestoneSession

/// The state shared by the sample thread and the event loop, behind one lock.
///
/// The sample thread calls ``HubState/process(_:wall:now:more:)`` once per
/// sample; the event loop holds the same lock while it serves client commands,
/// hands over positions and saves calibration updates.
final class Hub: Sendable {
    let state: Locked<HubState>

    init(_ state: HubState) {
        self.state = Locked(state)
    }

    func withLock<R>(_ body: (HubState) throws -> R) rethrows -> R {
        try state.withLock { s in try body(s) }
    }
}

/// Three parts: the per-sample work (``SampleProcessing``), the clients
/// (``ClientRegistry``) and what the service says about itself
/// (``ServiceStatus``); client commands (`HubCommands.swift`) use all three.
final class HubState {
    let release: String
    let processing: SampleProcessing
    let clients: ClientRegistry
    /// Positions, regions and the track (`HubLocation.swift`, `LocationCommands.swift`).
    let location: LocationService
    var status: ServiceStatus
    /// NMEA output has consumers (TCP clients or a serial device).
    var nmeaDemand = false

    init(release: String, session: HeadingSession, location: LocationService, configuration: ServiceConfiguration, listeners: ListenerOutputs) {
        self.release = release
        self.location = location
        processing = SampleProcessing(session: session, listeners: listeners)
        clients = ClientRegistry(limits: configuration.limits, defaultHeadingFilter: configuration.heading.session.headingFilter)
        status = ServiceStatus(configuration: configuration.heading)
    }

    /// Whether the sensors must be read: a watcher, a pending poll, NMEA consumers,
    /// a D-Bus claim or a live viewer.
    var demand: Bool {
        guard !status.stopping else { return false }
        return otherDemand || clients.wantSamples
    }

    /// Demand from outside the protocol clients.
    private var otherDemand: Bool { nmeaDemand || processing.listeners.wantSamples }

    // MARK: Sample thread

    func process(_ sample: SensorSample, wall: Double, now: Double, more: Bool = false) -> ProcessOutcome {
        guard !status.stopping else { return ProcessOutcome(demand: false, stop: true, sourceGeneration: status.sourceGeneration) }
        var outcome = processing.process(sample, wall: wall, now: now, more: more, clients: clients, otherDemand: otherDemand)
        outcome.sourceGeneration = status.sourceGeneration
        return outcome
    }

    /// Writes the lines gathered for each client; true when the event loop must look at one.
    func sendGathered(wall: Double) -> Bool {
        processing.sendGathered(clients, wall: wall)
    }

    /// Records a change of the source's state and tells watchers when its kind changed
    /// (nil: the source works).
    func report(_ problem: ServiceEvent?, resumed: ServiceEvent? = nil, wall: Double) {
        let changed = status.sourceProblem?.reason != problem?.reason
        status.sourceProblem = problem
        processing.listeners.sourceWorks(problem.map { Self.transientFaults.contains($0.reason) } ?? true)
        if changed, let e = problem ?? resumed { clients.broadcast(e, wall: wall) }
    }

    /// Faults during which the sensors are still there (D-Bus `HasCompass` stays true).
    private static let transientFaults: Set<String> = ["ioError", "noData"]

    /// The source's label and devices (the sample thread, when it opens one).
    func describeSource(label: String, devices: [DeviceDescription], identities: SourceDevices) {
        status.sourceLabel = label
        status.devices = devices
        status.calibrationDevices = identities
        processing.gpsd.describe(devices)
        if let live = clients.liveView {
            let j = JSONLineBuilder(capacity: 1024)
            ProtocolMessages.devices(j, source: label, devices: devices)
            live.publishDevices(j.bytes)
        }
    }

    // MARK: Event loop

    func addClient(fd: Int32, peer: String, origin: ClientOrigin, now: Double) -> ClientSession {
        let c = clients.add(fd: fd, peer: peer, origin: origin, now: now)
        clients.reply(c) { ProtocolMessages.version($0, release: release) }
        return c
    }

    /// Tells watchers the session's events raised outside a sample (position, true north).
    func broadcastSessionEvents(wall: Double) -> [HeadingEvent] {
        guard processing.session.hasEvents else { return [] }
        let events = processing.session.takeEvents()
        for e in events { clients.broadcast(ServiceEvent(e), wall: wall) }
        return events
    }

    /// A position update from the live source (the event loop reads gpsd).
    func positionUpdated(_ update: PositionUpdate, wall: Double) -> [HeadingEvent] {
        processing.session.positionUpdated(update)
        return broadcastSessionEvents(wall: wall)
    }

    /// Re-evaluates true north (fix ages) without waiting for a sample.
    func refreshTrueNorth(wall: Double) -> [HeadingEvent] {
        processing.session.refreshTrueNorth()
        return broadcastSessionEvents(wall: wall)
    }

    /// Answers polls that waited too long.
    func expirePolls(now: Double) {
        clients.expirePolls(now: now, why: status.sourceProblem?.detail) { c in
            processing.answerPoll(c, clients: clients, now: now, wall: Clock.wall(), settled: false)
        }
    }
}
