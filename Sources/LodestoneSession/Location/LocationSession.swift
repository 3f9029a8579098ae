import LodestoneLocation
import LodestonePosition

/// The location half assembled once, for `lodestone locate`, `serve` and
/// ``LocationManager``, as ``HeadingSession`` is the heading half:
///
/// ```
/// PositionUpdate ─▶ validation, order, plausibility (LocationFilter, once for all)
///                ─▶ region monitoring (RegionMonitor) ─▶ route recording (RouteRecorder)
///                ─▶ accepted fix; each consumer then applies its own desiredAccuracy and
///                   distanceFilter (LocationDelivery)
/// ```
///
/// A refused fix changes nothing and comes out as a `locationRejected` event
/// naming why; the source's state (no fix, unreachable, fixes again) comes out
/// once per change. Regions see every accepted fix, whatever a consumer's
/// filter. Route commands take their times from the fixes (the last accepted
/// fix's time, else the wall clock the host passes), so that a replayed track
/// with old times records as well as a live one. Pure: no clock, no I/O.
public struct LocationSession: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The checks of every fix: validation, order, the jump limit. Its `desiredAccuracy`
        /// and `distanceFilter` are each consumer's own (``LocationDelivery``) and stay at
        /// their defaults here.
        public var validation: LocationFilter.Settings
        public var regions: RegionMonitor.Settings
        public var route: RouteRecorder.Settings
        /// At most this many fixes in a route; recording stops there (`trackStopped`, `full`).
        /// Default 86 400: a day at 1 Hz, about 10 MB.
        public var maximumRoutePoints: Int

        public init(validation: LocationFilter.Settings = .init(), regions: RegionMonitor.Settings = .init(),
                    route: RouteRecorder.Settings = .init(), maximumRoutePoints: Int = 86_400) {
            self.validation = validation
            self.regions = regions
            self.route = route
            self.maximumRoutePoints = maximumRoutePoints
        }

        public func validate() throws(LocationSettingError) {
            try validation.validate()
            try regions.validate()
            try route.validate()
            try LocationSettingError.checkCount("maximumRoutePoints", maximumRoutePoints)
        }
    }

    /// What one position update produced, in order.
    public enum Output: Sendable, Equatable {
        /// A fix that passed every check.
        case location(Location)
        case region(RegionEvent)
        case event(LocationSessionEvent)
        /// Something the source said that a person should read (a gpsd ERROR, skipped log lines).
        case message(String)
    }

    public let settings: Settings
    public private(set) var validation: LocationFilter
    public private(set) var regions: RegionMonitor
    public private(set) var route: RouteRecorder
    /// The last fix that passed every check.
    public private(set) var latest: Location?
    /// Whether fixes arrive: nil before the source said anything.
    public private(set) var isAvailable: Bool?
    /// The regions or their states changed since ``takeRegionChanges()``: time to save them.
    public private(set) var regionsChanged = false
    private var lastRouteCommand = -Double.infinity
    /// A start asked for before any fix: the route starts at the first fix's time.
    private var routeStartsWithNextFix = false

    /// A session that continues monitoring `saved` regions (a region file), if given.
    public init(settings: Settings = Settings(), regions saved: RegionSet? = nil) throws(SessionError) {
        do {
            try settings.validate()
            validation = try LocationFilter(settings: settings.validation)
            route = try RouteRecorder(settings: settings.route)
            regions = try saved.map { (s) throws(RegionSetError) in try RegionMonitor(restoring: s, settings: settings.regions) }
                ?? RegionMonitor(settings: settings.regions)
        } catch let error as LocationSettingError {
            throw SessionError(.usage, "location: \(error)")
        } catch {
            throw SessionError(.badInput, "regions: \(error)")
        }
        self.settings = settings
    }

    /// New settings and regions (a reload), keeping the recorded route, the last fix and
    /// the checks' reference.
    public mutating func reconfigure(settings: Settings, regions saved: RegionSet?) throws(SessionError) {
        var fresh = try LocationSession(settings: settings, regions: saved)
        fresh.route = route
        fresh.latest = latest
        fresh.isAvailable = isAvailable
        fresh.lastRouteCommand = lastRouteCommand
        fresh.routeStartsWithNextFix = routeStartsWithNextFix
        if fresh.settings.validation == self.settings.validation { fresh.validation = validation }
        self = fresh
    }

    // MARK: Updates

    /// One update of the position source, through every part.
    public mutating func received(_ update: PositionUpdate) -> [Output] {
        switch update {
        case .fix(let fix): return received(fix)
        case .fixLost: return setAvailable(false, .noFix, "the receiver reports no fix")
        case .link(let problem?): return setAvailable(false, .sourceUnreachable, problem)
        case .link(nil): return []
        case .message(let text): return [.message(text)]
        }
    }

    /// The end of a replayed log.
    public func ended(_ sourceName: String) -> Output {
        .event(LocationSessionEvent(.sourceEnded, .endOfLog, "\(sourceName) has no more fixes"))
    }

    private mutating func received(_ fix: Location) -> [Output] {
        if let last = latest, fix.timestamp == last.timestamp { return sameEpoch(fix, last) }
        var outputs: [Output] = []
        var accepted: Location?
        for event in validation.process(fix) {
            if case .delivered(let clean) = event { accepted = clean }
            if let e = LocationSessionEvent(event, fix: fix) { outputs.append(.event(e)) }
        }
        guard let accepted else { return outputs }
        latest = accepted
        outputs += setAvailable(true, .fixReceived, "fixes arrive")
        outputs.append(.location(accepted))
        let before = regions.snapshot
        outputs += regions.update(with: accepted).map { .region($0) }
        if regions.snapshot != before { regionsChanged = true }
        outputs += record(accepted)
        return outputs
    }

    /// A second report of the last accepted epoch (gpsd reports an NMEA receiver's first epoch
    /// after RMC and again after GGA, with the altitude and accuracy): its values complete the
    /// fix, which consumers that did not take the first report judge anew. A plain repeat is
    /// ignored. Regions and the route keep the first report (they take one fix per time).
    private mutating func sameEpoch(_ fix: Location, _ last: Location) -> [Output] {
        guard let (clean, _) = try? fix.sanitized() else {
            return validation.process(fix).compactMap { LocationSessionEvent($0, fix: fix).map { .event($0) } }
        }
        let merged = last.completed(by: clean)
        guard merged != last else { return [] }
        latest = merged
        return [.location(merged)]
    }

    private mutating func setAvailable(_ available: Bool, _ reason: LocationSessionEvent.Reason, _ detail: String) -> [Output] {
        guard isAvailable != available else { return [] }
        isAvailable = available
        return [.event(LocationSessionEvent(available ? .locationAvailable : .locationUnavailable, reason, detail))]
    }

    // MARK: Regions

    /// Starts monitoring `region` (one with the same identifier is replaced).
    public mutating func startMonitoring(_ region: CircularRegion) throws(RegionError) {
        try regions.startMonitoring(region)
        regionsChanged = true
    }

    @discardableResult
    public mutating func stopMonitoring(identifier: String) throws(RegionError) -> CircularRegion {
        defer { regionsChanged = true }
        return try regions.stopMonitoring(identifier: identifier)
    }

    /// The region's state now when known, else nil and a `determinedState` event follows with the fix that decides it.
    public mutating func requestState(identifier: String) throws(RegionError) -> RegionEvent? {
        try regions.requestState(identifier: identifier)
    }

    /// The regions to save, once after each change.
    public mutating func takeRegionChanges() -> RegionSet? {
        guard regionsChanged else { return nil }
        regionsChanged = false
        return regions.snapshot
    }

    // MARK: Route

    public enum RouteCommand: String, Sendable, CaseIterable {
        case start, pause, resume, stop
    }

    /// Runs a recorder command at the time of the last fix. A start before any fix starts
    /// the route with the first fix (whose time may be far from `wallClock`: a replay);
    /// other commands before any fix take `wallClock`.
    public mutating func route(_ command: RouteCommand, wallClock: Double) throws(RouteRecorderError) {
        if command != .start { routeStartsWithNextFix = false }
        if latest == nil, command == .start {
            try route.start(at: wallClock) // refused unless idle or stopped; restarted at the first fix
            routeStartsWithNextFix = true
            return
        }
        let time = max(latest?.timestamp ?? wallClock, lastRouteCommand)
        switch command {
        case .start: try route.start(at: time)
        case .pause: try route.pause(at: time)
        case .resume: try route.resume(at: time)
        case .stop: try route.stop(at: time)
        }
        lastRouteCommand = time
    }

    /// The route's figures now: elapsed time runs to the last fix.
    public var routeStatistics: RouteStatistics { route.statistics() }

    private mutating func record(_ fix: Location) -> [Output] {
        if routeStartsWithNextFix {
            routeStartsWithNextFix = false
            route = (try? RouteRecorder(settings: settings.route)) ?? route
            try? route.start(at: fix.timestamp)
            lastRouteCommand = fix.timestamp
        }
        guard route.state == .recording else { return [] }
        route.add(fix)
        let statistics = route.statistics()
        guard statistics.pointCount >= settings.maximumRoutePoints else { return [] }
        try? route.stop(at: fix.timestamp)
        lastRouteCommand = fix.timestamp
        return [.event(LocationSessionEvent(.trackStopped, .full,
                                            "the route holds \(statistics.pointCount) fixes, the most allowed (maximumRoutePoints): recording stopped; export it and start a new one",
                                            fixTime: fix.timestamp))]
    }
}

extension LocationSettingError {
    /// Throws unless `value` is at least 1.
    static func checkCount(_ name: String, _ value: Int) throws(LocationSettingError) {
        guard value >= 1 else { throw LocationSettingError(name: name, value: Double(value), allowed: "an integer ≥ 1") }
    }
}

extension Location {
    /// This fix with the values another report of the same epoch gives (its position, and
    /// each measurement it has), keeping the ones it leaves out.
    func completed(by other: Location) -> Location {
        Location(latitude: other.latitude, longitude: other.longitude,
                 altitude: other.altitude ?? altitude, ellipsoidalAltitude: other.ellipsoidalAltitude ?? ellipsoidalAltitude,
                 horizontalAccuracy: other.horizontalAccuracy ?? horizontalAccuracy, verticalAccuracy: other.verticalAccuracy ?? verticalAccuracy,
                 speed: other.speed ?? speed, speedAccuracy: other.speedAccuracy ?? speedAccuracy,
                 course: other.course ?? course, courseAccuracy: other.courseAccuracy ?? courseAccuracy, timestamp: timestamp)
    }
}
