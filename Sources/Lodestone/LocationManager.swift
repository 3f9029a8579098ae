import LodestoneCore
import LodestoneLocation
import LodestonePosition
import LodestoneSession
import LodestoneSteering

/// Positions for Swift code, in the manner of `CLLocationManager`: the location half,
/// beside ``HeadingManager``.
///
/// ```swift
/// let manager = LocationManager(.gpsd(PositionSetting.defaultGPSD))
/// manager.desiredAccuracy = 20          // metres; .infinity (the default) keeps every fix
/// manager.distanceFilter = 10           // metres between delivered fixes; 0 delivers all
/// try manager.startMonitoring(for: CircularRegion(identifier: "home", center: home, radius: 100))
/// Task { for await e in manager.regionEvents() { print(e) } }
/// for await location in manager.locations() { print(location.latitude, location.longitude) }
/// ```
///
/// It runs the library's ``LocationSession``, as `lodestone locate` and `serve` do:
/// every fix is checked once (NaN, out-of-range values, fixes out of order or from an
/// implausible jump are refused with an event naming the fault), then regions and
/// the route recorder see it, then `desiredAccuracy` and `distanceFilter` decide
/// whether it is delivered. The source (gpsd, reconnecting; a replayed NMEA log or
/// GPX track; a fixed position) is read on a thread of its own while anything wants
/// it: location updates, monitored regions, a route being recorded, or steering.
/// Streams and the ``delegate`` get the same.
public final class LocationManager: Sendable {
    struct State {
        var session: LocationSession
        var delivery = try! LocationDelivery()
        var updating = false
        var running = false
        var restartRequested = false
        var stop: StopFlag?
        var latest: Location?
        var latestAdvice: SteeringAdvice?
        var target: GeoCoordinate?
        var advisor: TurnAdvisor?
        var steeringSettings = TurnAdvisor.Settings()
        var delegate = WeakDelegate()

        /// Whether the source must be read.
        var wanted: Bool {
            updating || !session.regions.regions.isEmpty || session.route.state == .recording || target != nil
        }
    }

    struct WeakDelegate {
        weak var value: (any LocationManagerDelegate)?
    }

    let state: Locked<State>
    let locationStreams = StreamFanOut<Location>(keepingNewest: 256)
    let eventStreams = StreamFanOut<LocationSessionEvent>(keepingNewest: 64)
    let regionStreams = StreamFanOut<RegionEvent>(keepingNewest: 64)
    let adviceStreams = StreamFanOut<SteeringAdvice>(keepingNewest: 64)
    /// Where fixes come from.
    public let source: PositionSetting

    /// A manager reading `source` (gpsd by default); `regions` continues monitoring saved
    /// regions (``RegionFile/load(_:settings:)``). Throws for settings out of range.
    public init(_ source: PositionSetting = .gpsd(PositionSetting.defaultGPSD), settings: LocationSession.Settings = .init(),
                regions: RegionSet? = nil) throws(SessionError) {
        self.source = source
        state = Locked(State(session: try LocationSession(settings: settings, regions: regions)))
    }

    // MARK: Settings

    /// Fixes whose horizontal accuracy is worse than this many metres are not delivered;
    /// `.infinity` (the default, as `kCLLocationAccuracyBest`) delivers every fix.
    public var desiredAccuracy: Double {
        get { state.withLock { $0.delivery.desiredAccuracy } }
        set { setDelivery(desiredAccuracy: newValue, distanceFilter: distanceFilter) }
    }

    /// A fix is delivered only once it is this many metres (geodesic) from the last one
    /// delivered; the first always. 0 (the default, `kCLDistanceFilterNone`) delivers all.
    public var distanceFilter: Double {
        get { state.withLock { $0.delivery.distanceFilter } }
        set { setDelivery(desiredAccuracy: desiredAccuracy, distanceFilter: newValue) }
    }

    private func setDelivery(desiredAccuracy: Double, distanceFilter: Double) {
        precondition(distanceFilter.isFinite && distanceFilter >= 0, "distanceFilter must be a finite number of metres ≥ 0")
        precondition(desiredAccuracy > 0, "desiredAccuracy must be a number of metres > 0 (.infinity: every fix)")
        let delivery = try! LocationDelivery(desiredAccuracy: desiredAccuracy, distanceFilter: distanceFilter)
        state.withLock { $0.delivery = delivery }
    }

    /// Gets locations, events, region events and steering through callbacks; held weakly.
    public var delegate: (any LocationManagerDelegate)? {
        get { state.withLock { $0.delegate.value } }
        set { state.withLock { $0.delegate.value = newValue } }
    }

    // MARK: Results

    /// The most recent delivered fix (Core Location's `location`).
    public var location: Location? { state.withLock { $0.latest } }

    // MARK: Location updates

    /// Starts delivering fixes (``locations()``, the delegate) and reading the source if needed.
    public func startUpdatingLocation() {
        state.withLock { $0.updating = true }
        startReading()
    }

    /// Stops delivering fixes and ends the location streams at once (nothing is delivered
    /// after the call); the source stays open while regions are monitored, a route is
    /// recorded or steering is on.
    public func stopUpdatingLocation() {
        state.withLock { $0.updating = false }
        locationStreams.close()
    }

    /// A stream of delivered fixes; starts updating if needed.
    public func locations() -> AsyncStream<Location> {
        let stream = locationStreams.stream()
        startUpdatingLocation()
        return stream
    }

    /// Refused fixes, dropped values, the source's state, the end of a replay.
    public func events() -> AsyncStream<LocationSessionEvent> {
        eventStreams.stream()
    }

    // MARK: Regions

    /// Starts monitoring `region` (one with the same identifier is replaced) and reading the source.
    public func startMonitoring(for region: CircularRegion) throws(RegionError) {
        try state.withLock { s throws(RegionError) in try s.session.startMonitoring(region) }
        startReading()
    }

    public func stopMonitoring(for region: CircularRegion) {
        _ = try? state.withLock { s throws(RegionError) in try s.session.stopMonitoring(identifier: region.identifier) }
    }

    /// The regions being monitored.
    public var monitoredRegions: Set<CircularRegion> { state.withLock { Set($0.session.regions.regions) } }

    /// As `requestState(for:)`: a `determinedState` event follows on ``regionEvents()`` and
    /// the delegate, now when the state is known, else with the fix that decides it.
    public func requestState(for region: CircularRegion) throws(RegionError) {
        let now = try state.withLock { s throws(RegionError) in try s.session.requestState(identifier: region.identifier) }
        if let now { post(region: now) }
    }

    /// The regions with their states, to save (``RegionFile/save(_:to:settings:options:)``) and restore.
    public var savedRegions: RegionSet { state.withLock { $0.session.regions.snapshot } }

    /// Entries, exits, dwells and determined states.
    public func regionEvents() -> AsyncStream<RegionEvent> {
        regionStreams.stream()
    }

    // MARK: Route

    /// Runs a route command (start, pause, resume, stop) at the time of the last fix.
    public func route(_ command: LocationSession.RouteCommand) throws(RouteRecorderError) {
        try state.withLock { s throws(RouteRecorderError) in try s.session.route(command, wallClock: SystemClock().wall()) }
        if command == .start { startReading() }
    }

    /// Distance, times and speeds of the route.
    public var routeStatistics: RouteStatistics { state.withLock { $0.session.routeStatistics } }

    /// The route as a GPX 1.1 document (``GPXWriter/write(_:)`` makes the text).
    public func routeGPX(name: String? = nil) -> GPXDocument { state.withLock { $0.session.route.gpx(name: name) } }

    // MARK: Steering

    /// Steering toward a target with each delivered fix (no heading: `delta` and `turn` are
    /// nil; ``HeadingManager`` steers with the heading too); nil stops it.
    public var steeringTarget: GeoCoordinate? {
        get { state.withLock { $0.target } }
        set {
            state.withLock {
                $0.target = newValue
                $0.advisor = nil
                $0.latestAdvice = nil
            }
            if newValue != nil { startReading() }
        }
    }

    /// Arrival radius and ETA speed; the turn settings matter only with a heading.
    public var steeringSettings: TurnAdvisor.Settings {
        get { state.withLock { $0.steeringSettings } }
        set {
            state.withLock {
                $0.steeringSettings = newValue
                $0.advisor = nil
            }
        }
    }

    public var steeringAdvice: SteeringAdvice? { state.withLock { $0.latestAdvice } }

    public func steering() -> AsyncStream<SteeringAdvice> {
        adviceStreams.stream()
    }

    // MARK: Running

    /// Starts the reading thread unless it runs; just after a ``stop()``, once the stopped
    /// reader has let go of the source.
    private func startReading() {
        let stop = StopFlag()
        let start = state.withLock { s -> Bool in
            guard !s.running else {
                if s.stop?.isSet == true { s.restartRequested = true }
                return false
            }
            s.running = true
            s.stop = stop
            return true
        }
        guard start else { return }
        do {
            try SessionThread.start { [self] in read(stop: stop) }
        } catch {
            state.withLock { $0.running = false }
            post(LocationSessionEvent(.locationUnavailable, .sourceUnreachable, error.description))
        }
    }

    /// Stops reading the source now, whatever still wants it, and ends every stream: the
    /// location and steering streams at once, so that nothing is delivered after the call.
    public func stop() {
        let flag = state.withLock { s in
            s.updating = false
            s.restartRequested = false
            return s.stop
        }
        locationStreams.close()
        adviceStreams.close()
        flag?.set()
    }

    /// The reading thread: polls the source ten times a second while it is wanted.
    private func read(stop: StopFlag) {
        defer { finish(stopped: stop.isSet) }
        var source: any PositionSource
        do {
            guard let s = try self.source.makeLocationSource(wallClock: SystemClock().wall()) else {
                post(LocationSessionEvent(.locationUnavailable, .sourceUnreachable, "no position source: give gpsd, a position log or a fixed position"))
                return
            }
            source = s
        } catch {
            post(LocationSessionEvent(.locationUnavailable, .sourceUnreachable, error.description))
            return
        }
        defer { source.close() }
        let clock = SystemClock(stop: stop)
        while stillWanted(stop) {
            let updates = source.poll(now: clock.monotonic())
            for update in updates { handle(update) }
            if source.hasEnded {
                let end = state.withLock { $0.session.ended(source.name) }
                if case .event(let e) = end { post(e) }
                return
            }
            _ = clock.sleep(PositionFeed.interval)
        }
    }

    /// Whether to read on. A reader that leaves because nothing wants it sets its own stop
    /// flag under the lock, so that a start just after it is a restart, not lost.
    private func stillWanted(_ stop: StopFlag) -> Bool {
        state.withLock { s in
            if s.wanted && !stop.isSet { return true }
            stop.set()
            return false
        }
    }

    private func handle(_ update: PositionUpdate) {
        let outputs = state.withLock { $0.session.received(update) }
        for output in outputs {
            switch output {
            case .location(let fix): deliver(fix)
            case .region(let e): post(region: e)
            case .event(let e): post(e)
            case .message: break
            }
        }
    }

    private func deliver(_ fix: Location) {
        let (delivered, delegate, advice) = state.withLock { s in
            let delivered = s.updating && s.delivery.deliver(fix)
            if delivered { s.latest = fix }
            var advice: SteeringAdvice?
            if let target = s.target, let here = fix.coordinate, delivered || !s.updating {
                if s.advisor == nil { s.advisor = try? TurnAdvisor(settings: s.steeringSettings) }
                advice = s.advisor?.advise(from: here, to: target, heading: nil, groundSpeed: fix.speed)
                s.latestAdvice = advice ?? s.latestAdvice
            }
            return (delivered, s.delegate.value, advice)
        }
        if delivered {
            locationStreams.yield(fix)
            delegate?.locationManager(self, didUpdate: fix)
        }
        guard let advice else { return }
        adviceStreams.yield(advice)
        delegate?.locationManager(self, didUpdate: advice)
    }

    private func post(_ event: LocationSessionEvent) {
        eventStreams.yield(event)
        state.withLock { $0.delegate.value }?.locationManager(self, didReceive: event)
    }

    private func post(region event: RegionEvent) {
        regionStreams.yield(event)
        state.withLock { $0.delegate.value }?.locationManager(self, didReceive: event)
    }

    /// The reader ended: every stream ends (the stop closed the location and steering
    /// streams already), unless the caller started again meanwhile.
    private func finish(stopped: Bool) {
        let restart = state.withLock { s in
            s.running = false
            s.stop = nil
            defer { s.restartRequested = false }
            return s.restartRequested
        }
        if restart {
            startReading()
            return
        }
        if !stopped {
            locationStreams.finish()
            adviceStreams.finish()
        }
        eventStreams.finish()
        regionStreams.finish()
    }
}
