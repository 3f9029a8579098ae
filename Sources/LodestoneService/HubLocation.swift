import LodestoneCore
import LodestoneLocation
import LodestoneLogs
import LodestonePosition
import LodestoneSession

/// The location half on the event loop: each position update goes once through the
/// ``LocationSession``; each watching client then gets, for a fix its own
/// desiredAccuracy and distanceFilter let through, a LOCATION object (if it asked)
/// and a STEER object (if it steers: steering follows the position, not only the
/// heading); REGION objects and location EVENTs go to the clients that asked.
extension HubState {
    /// Hands position updates to the location half; returns messages for the log.
    func locationUpdated(_ updates: [PositionUpdate], wall: Double, now: Double) -> [String] {
        var messages: [String] = []
        for update in updates {
            for output in location.session.received(update) {
                switch output {
                case .location(let fix): deliver(fix, wall: wall, now: now)
                case .region(let event): send(event)
                case .event(let event): broadcast(event, wall: wall)
                case .message(let text): messages.append(text)
                }
            }
        }
        location.noteRegionChanges()
        return messages
    }

    /// A replayed position log ended: its watchers are told once.
    func locationSourceEnded(_ name: String, wall: Double) {
        if case .event(let e) = location.session.ended(name) { broadcast(e, wall: wall) }
    }

    private func deliver(_ fix: Location, wall: Double, now: Double) {
        let heading = processing.latestHeading(now: now, maximumAge: 1)
        let j = location.line
        var encoded = false
        for c in clients.clients where c.watching && !c.closing {
            guard c.location.locations || c.steering != nil, c.location.delivery.deliver(fix) else { continue }
            if c.location.locations {
                if !encoded {
                    j.removeAll()
                    j.appendLocation(fix)
                    encoded = true
                }
                _ = c.send(j.bytes)
            }
            if c.steering != nil { steer(c, heading: heading, fix: fix, wall: wall) }
        }
        if location.session.route.state == .recording { sendTrack(to: clients.clients.filter { $0.watching && $0.location.track }) }
    }

    private func steer(_ c: ClientSession, heading: Heading?, fix: Location, wall: Double) {
        let j = JSONLineBuilder(capacity: 1024)
        guard var steering = c.steering else { return }
        let encoded = steering.encode(into: j, heading: heading, position: fix, time: wall)
        c.steering = steering
        if encoded { _ = c.send(j.bytes) }
    }

    private func send(_ event: RegionEvent) {
        let j = location.line
        j.removeAll()
        j.appendRegionEvent(event)
        for c in clients.clients where !c.closing {
            var wants = c.watching && c.location.regions
            if case .determinedState(let id, _) = event, c.location.pendingStates.remove(id) != nil { wants = true }
            if wants { _ = c.send(j.bytes) }
        }
    }

    private func broadcast(_ event: LocationSessionEvent, wall: Double) {
        let j = location.line
        j.removeAll()
        j.appendLocationEvent(event, wallClock: wall)
        for c in clients.clients where c.watching && c.location.wantsLocationEvents && !c.closing { _ = c.send(j.bytes) }
    }

    /// The TRACK object now, to `targets`.
    func sendTrack(to targets: [ClientSession]) {
        guard !targets.isEmpty else { return }
        let j = location.line
        j.removeAll()
        LocationMessages.track(j, location.session.routeStatistics, segments: location.session.route.segments.count,
                               maximumPoints: location.session.settings.maximumRoutePoints)
        for c in targets where !c.closing { _ = c.send(j.bytes) }
    }
}
