import LodestoneCore
import Foundation
import Lodestone
import LodestoneTestSupport
import Testing

/// Collects what a delegate is told.
final class LocationRecorder: LocationManagerDelegate {
    let calls = Locked<[String]>([])
    func locationManager(_ manager: LocationManager, didUpdate location: Location) { calls.withLock { $0.append("location") } }
    func locationManager(_ manager: LocationManager, didReceive regionEvent: RegionEvent) { calls.withLock { $0.append("region") } }
}

@Suite(.serialized, .timeLimit(.minutes(2))) struct LocationManagerTests {
    static let start = try! GeoCoordinate(latitude: 46.5, longitude: 6.6)

    /// A GPX track due north: `count` fixes 20 m apart, one a second at 20 m/s, accuracy 3 m.
    func track(_ count: Int, in dir: TemporaryDirectory) throws -> String {
        var points: [GPXPoint] = []
        for i in 0..<count {
            let p = try Geodesic.wgs84.direct(from: Self.start, bearing: 0, distance: 20 * Double(i)).destination
            points.append(GPXPoint(latitude: p.latitude, longitude: p.longitude, time: 1_780_000_000 + Double(i), speed: 20, course: 0,
                                   horizontalAccuracy: 3))
        }
        return dir.file("track.gpx", GPXWriter.write(GPXDocument(tracks: [GPXTrack(segments: [points])])))
    }

    func north(_ metres: Double) throws -> GeoCoordinate {
        try Geodesic.wgs84.direct(from: Self.start, bearing: 0, distance: metres).destination
    }

    /// A replayed track through a region: fixes after the distanceFilter, an entry and an
    /// exit where the hysteresis puts them, the route's figures, and steering that arrives
    /// once with the ETA stopping there.
    @Test func locationsRegionsRouteAndSteeringFromAReplayedTrack() async throws {
        let dir = TemporaryDirectory()
        let manager = try LocationManager(.replay(PositionReplay(path: try track(40, in: dir), speed: 50)))
        let delegate = LocationRecorder()
        manager.delegate = delegate
        manager.distanceFilter = 50
        // Subscribed before anything starts the source: a stream gets what comes after it
        // is asked for, and a task may run only after the replay has ended.
        let regionStream = manager.regionEvents(), adviceStream = manager.steering()
        try manager.startMonitoring(for: CircularRegion(identifier: "mid", center: try north(400), radius: 100))
        manager.steeringSettings = TurnAdvisor.Settings(arrivalRadius: 30)
        manager.steeringTarget = try north(700)
        try manager.route(.start)
        let regions = Task { var all: [RegionEvent] = []; for await e in regionStream { all.append(e) }; return all }
        let advice = Task { var all: [SteeringAdvice] = []; for await a in adviceStream { all.append(a) }; return all }
        var locations: [Location] = []
        for await l in manager.locations() { locations.append(l) }
        manager.stop()
        let regionEvents = await regions.value, advices = await advice.value

        // Every third fix (60 m ≥ 50 m): 0, 60, …, 780 m (GPX keeps nine decimals: 0.1 mm).
        #expect(locations.count == 14, "\(locations.count)")
        for (a, b) in zip(locations, locations.dropFirst()) {
            #expect(abs((a.distance(to: b) ?? 0) - 60) < 3e-4)
        }
        // Entered within 100 − 10 m of the centre (the fix at 320 m), left beyond 110 m (at 520 m).
        let described = regionEvents.map { e -> String in
            switch e {
            case let .entered(id, _, d): return "entered \(id) \(Int(d.rounded()))"
            case let .exited(id, _, d): return "exited \(id) \(Int(d.rounded()))"
            default: return "\(e)"
            }
        }
        #expect(described == ["entered mid 80", "exited mid 120"], "\(described)")
        let stats = manager.routeStatistics
        #expect(stats.pointCount == 40 && abs(stats.distance - 780) < 3e-3 && stats.elapsedTime == 39, "\(stats)")
        // Steering with each delivered fix: one arrival (the fix at 720 m, 20 m past), no ETA while arrived.
        let arrivals = advices.filter(\.justArrived)
        #expect(arrivals.count == 1 && arrivals[0].distance <= 30, "\(advices.map(\.distance))")
        if let i = advices.firstIndex(where: \.arrived) {
            #expect(advices[i...].filter(\.arrived).allSatisfy { $0.eta == nil })
            #expect(advices[..<i].allSatisfy { $0.eta != nil && $0.delta == nil })
        }
        #expect(delegate.calls.withLock { $0.filter { $0 == "location" }.count } == 14)
        #expect(delegate.calls.withLock { $0.filter { $0 == "region" }.count } == 2)
    }

    /// Nothing is delivered after stopUpdatingLocation, not even fixes the reader had read
    /// already (a fast replay reads many a poll), and updating starts again when asked.
    @Test func nothingIsDeliveredAfterAStopOfUpdates() async throws {
        let dir = TemporaryDirectory()
        // Two fixes a poll, and 20 000 of them: the replay must not end before the caller
        // stops, however long a loaded machine keeps the test's task from running (the
        // suite's tasks have waited 14 minutes under the address sanitizer).
        let manager = try LocationManager(.replay(PositionReplay(path: try track(20_000, in: dir), speed: 20)))
        var first = 0
        for await _ in manager.locations() {
            first += 1
            if first == 3 { manager.stopUpdatingLocation() }
        }
        var second = 0
        for await _ in manager.locations() {
            second += 1
            if second == 3 { manager.stop() }
        }
        #expect(first == 3)
        #expect(second == 3)
    }

    /// A position log that cannot be read is an event, not a crash.
    @Test func anUnreadableLogIsAnEvent() async throws {
        let manager = try LocationManager(.replay(PositionReplay(path: "/nonexistent/track.gpx")))
        let events = manager.events()
        manager.startUpdatingLocation()
        var first: LocationSessionEvent?
        for await e in events where first == nil { first = e }
        #expect(first?.name == .locationUnavailable && first?.detail.contains("/nonexistent/track.gpx") == true, "\(String(describing: first))")
    }

    /// HeadingManager's steering follows the position: with a headingFilter that delivers one
    /// heading only, advice still comes with each new fix.
    @Test func headingManagerSteersWithEachFix() async throws {
        let dir = TemporaryDirectory()
        let manager = HeadingManager(.simulated(rate: 50))
        manager.headingFilter = 180
        manager.position = .replay(PositionReplay(path: try track(40, in: dir), speed: 20))
        manager.steeringTarget = try north(2000)
        manager.startUpdatingHeading()
        var advices: [SteeringAdvice] = []
        for await a in manager.steering() {
            advices.append(a)
            if advices.count >= 10 { manager.stopUpdatingHeading() }
        }
        #expect(advices.count >= 10)
        let distances = advices.map(\.distance)
        #expect(Set(distances.map { Int($0.rounded()) }).count >= 8, "the advice must follow the fixes: \(distances)")
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $1 <= $0 + 1e-6 }, "driving toward the target: \(distances)")
    }
}
