import LodestoneSteering

/// Watches circular regions and reports entering, leaving and dwelling, as
/// `CLLocationManager` region monitoring does, from the fixes it is given.
///
/// Hysteresis, so that GPS jitter at the edge never flaps: with the margin
/// m = max(`minimumMargin`, the fix's horizontal accuracy),
/// - inside → outside when the fix is beyond r + m from the centre;
/// - outside → inside when it is within max(r − m, r/2).
/// The band between is 2m wide (m + r/2 for regions smaller than 2m), so a fix
/// jittering by up to its accuracy around any point cannot cross both edges.
/// Regions smaller than about twice the accuracy are entered only near their
/// centre: like Core Location's, they are unreliable below that size.
///
/// The first fix that decides a region's state sets it without an event (as
/// Core Location does when monitoring starts inside a region); ask with
/// ``requestState(identifier:)`` to be told. Fixes with an invalid position or
/// a time not after the last one are ignored.
public struct RegionMonitor: Sendable {
    public let settings: Settings
    private var monitored: [Monitored] = []
    private var lastFixTime = -Double.infinity

    private struct Monitored: Sendable {
        var entry: RegionSet.Entry
        /// A state request waits for the state to become known.
        var stateRequested = false
    }

    public init(settings: Settings = Settings()) throws(LocationSettingError) {
        try settings.validate()
        self.settings = settings
    }

    /// A monitor that continues from saved regions and states.
    public init(restoring saved: RegionSet, settings: Settings = Settings()) throws(RegionSetError) {
        do {
            try self.init(settings: settings)
        } catch {
            throw .settings(error)
        }
        try saved.validate(maximumRegions: settings.maximumRegions, maximumRadius: settings.maximumRadius)
        monitored = saved.entries.map { Monitored(entry: $0) }
    }

    /// The regions, in the order they were added.
    public var regions: [CircularRegion] { monitored.map(\.entry.region) }

    /// Everything needed to continue after a restart.
    public var snapshot: RegionSet { RegionSet(entries: monitored.map(\.entry)) }

    /// Starts watching `region`. A region with the same identifier is replaced (its
    /// state starts again from unknown), as in Core Location.
    public mutating func startMonitoring(_ region: CircularRegion) throws(RegionError) {
        guard region.radius <= settings.maximumRadius else {
            throw .valueOutOfRange(name: "radius", value: region.radius, allowed: "metres ≤ \(settings.maximumRadius)")
        }
        if let i = index(of: region.identifier) {
            monitored[i] = Monitored(entry: RegionSet.Entry(region: region))
            return
        }
        guard monitored.count < settings.maximumRegions else { throw .tooManyRegions(limit: settings.maximumRegions) }
        monitored.append(Monitored(entry: RegionSet.Entry(region: region)))
    }

    /// Stops watching the region and returns it.
    @discardableResult
    public mutating func stopMonitoring(identifier: String) throws(RegionError) -> CircularRegion {
        guard let i = index(of: identifier) else { throw .unknownIdentifier(identifier) }
        return monitored.remove(at: i).entry.region
    }

    /// The current state of a region; throws for an unknown identifier.
    public func state(of identifier: String) throws(RegionError) -> RegionState {
        guard let i = index(of: identifier) else { throw .unknownIdentifier(identifier) }
        return monitored[i].entry.state
    }

    /// As `requestState(for:)`: the `determinedState` event now when the state is
    /// known, else nil and the event comes with the fix that decides it.
    public mutating func requestState(identifier: String) throws(RegionError) -> RegionEvent? {
        guard let i = index(of: identifier) else { throw .unknownIdentifier(identifier) }
        let state = monitored[i].entry.state
        guard state != .unknown else {
            monitored[i].stateRequested = true
            return nil
        }
        return .determinedState(identifier: identifier, state: state)
    }

    /// Checks one fix against every region; events in region order.
    public mutating func update(with fix: Location) -> [RegionEvent] {
        guard let position = fix.coordinate, fix.timestamp.isFinite, fix.timestamp > lastFixTime else { return [] }
        lastFixTime = fix.timestamp
        let margin = max(settings.minimumMargin, fix.horizontalAccuracy.flatMap { $0.isFinite ? $0 : nil } ?? 0)
        var events: [RegionEvent] = []
        for i in monitored.indices {
            let distance = Geodesic.wgs84.inverse(from: monitored[i].entry.region.center, to: position).distance
            events += Self.advance(&monitored[i], distance: distance, margin: margin, time: fix.timestamp)
        }
        return events
    }

    /// One region's step: transition with hysteresis, then dwell.
    private static func advance(_ m: inout Monitored, distance: Double, margin: Double, time: Double) -> [RegionEvent] {
        let region = m.entry.region
        var events: [RegionEvent] = []
        switch m.entry.state {
        case .unknown:
            let state: RegionState = distance <= region.radius ? .inside : .outside
            m.entry = RegionSet.Entry(region: region, state: state, insideSince: time)
            if m.stateRequested {
                m.stateRequested = false
                events.append(.determinedState(identifier: region.identifier, state: state))
            }
        case .inside where distance > region.radius + margin:
            m.entry = RegionSet.Entry(region: region, state: .outside)
            if region.notifyOnExit { events.append(.exited(identifier: region.identifier, time: time, distance: distance)) }
        case .outside where distance <= max(region.radius - margin, region.radius / 2):
            m.entry = RegionSet.Entry(region: region, state: .inside, insideSince: time)
            if region.notifyOnEntry { events.append(.entered(identifier: region.identifier, time: time, distance: distance)) }
        default:
            break
        }
        if let dwell = region.dwellTime, m.entry.state == .inside, !m.entry.dwellReported,
           let since = m.entry.insideSince, time - since >= dwell {
            m.entry.dwellReported = true
            events.append(.dwelled(identifier: region.identifier, time: time, duration: time - since))
        }
        return events
    }

    private func index(of identifier: String) -> Int? {
        monitored.firstIndex { $0.entry.region.identifier == identifier }
    }
}
