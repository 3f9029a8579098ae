import LodestoneLocation
import LodestoneLogs
import LodestoneSession
import LodestoneSteering

/// The location commands: `?REGION` (monitored regions) and `?TRACK` (the recorded
/// track), and the location keys of `?WATCH`. See PROTOCOL.md.
extension HubState {
    func region(_ request: ClientCommand.RegionRequest, for c: ClientSession) {
        do throws(ClientCommand.Failure) {
            try location.checkRegionsUsable()
            switch request {
            case .list:
                break
            case .add(let spec):
                let region = try Self.region(spec)
                try Self.regionCommand { () throws(RegionError) in try location.session.startMonitoring(region) }
            case .remove(let id):
                try Self.regionCommand { () throws(RegionError) in try location.session.stopMonitoring(identifier: id) }
            case .state(let id):
                var known: RegionEvent?
                try Self.regionCommand { () throws(RegionError) in known = try location.session.requestState(identifier: id) }
                if let known {
                    clients.reply(c) { $0.appendRegionEvent(known) }
                } else {
                    c.location.pendingStates.insert(id)
                }
                return
            }
            location.noteRegionChanges()
            clients.reply(c) { $0.appendRegions(location.session.regions.snapshot) }
        } catch {
            clients.reply(c) { ProtocolMessages.error($0, error.message) }
        }
    }

    private static func regionCommand(_ body: () throws(RegionError) -> Void) throws(ClientCommand.Failure) {
        do {
            try body()
        } catch {
            throw ClientCommand.Failure("?REGION: \(error)")
        }
    }

    private static func region(_ spec: ClientCommand.RegionSpec) throws(ClientCommand.Failure) -> CircularRegion {
        do {
            guard abs(spec.longitude) <= 180 else {
                throw RegionError.valueOutOfRange(name: "lon", value: spec.longitude, allowed: "degrees in [-180, 180]")
            }
            let centre: GeoCoordinate
            do {
                centre = try GeoCoordinate(latitude: spec.latitude, longitude: spec.longitude)
            } catch {
                throw RegionError.valueOutOfRange(name: "lat", value: spec.latitude, allowed: "degrees in [-90, 90]")
            }
            return try CircularRegion(identifier: spec.identifier, center: centre, radius: spec.radius,
                                      notifyOnEntry: spec.notifyOnEntry ?? true, notifyOnExit: spec.notifyOnExit ?? true,
                                      dwellTime: spec.dwellTime)
        } catch let error as RegionError {
            throw ClientCommand.Failure("?REGION: \(error)")
        } catch {
            throw ClientCommand.Failure("?REGION: \(error)")
        }
    }

    func track(_ request: ClientCommand.TrackRequest, for c: ClientSession, wall: Double) {
        switch request {
        case .status:
            sendTrack(to: [c])
        case .command(let command):
            do {
                try location.session.route(command, wallClock: wall)
            } catch {
                clients.reply(c) { ProtocolMessages.error($0, "?TRACK: \(error)") }
                return
            }
            sendTrack(to: [c] + clients.clients.filter { $0 !== c && $0.watching && $0.location.track })
        case .points(let offset):
            clients.reply(c) { LocationMessages.trackPoints($0, location.session.route.segments, offset: offset) }
        }
    }
}
