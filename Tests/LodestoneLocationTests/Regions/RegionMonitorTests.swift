import Testing
import LodestoneCore
import LodestoneSimulation
import LodestoneSteering
@testable import LodestoneLocation

@Suite struct RegionMonitorTests {
    static let center = try! GeoCoordinate(latitude: 48.8584, longitude: 2.2945)
    static let t0 = 1_780_000_000.0

    /// A fix `distance` metres from the centre along `bearing`.
    static func fix(_ distance: Double, bearing: Double = 0, time: Double, accuracy: Double? = 5) -> Location {
        let c = try! Geodesic.wgs84.direct(from: center, bearing: bearing, distance: distance).destination
        return Location(latitude: c.latitude, longitude: c.longitude, horizontalAccuracy: accuracy, timestamp: t0 + time)
    }

    static func region(_ id: String = "tower", radius: Double = 100, dwell: Double? = nil) throws -> CircularRegion {
        try CircularRegion(identifier: id, center: center, radius: radius, dwellTime: dwell)
    }

    @Test func crossingEntersAndExitsOnce() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(Self.region())
        var events: [RegionEvent] = []
        // South to north through the centre, 5 m a second, from 300 m south to 300 m north.
        for i in 0...120 {
            events += monitor.update(with: Self.fix(Double(302 - 5 * i), bearing: 180, time: Double(i)))
        }
        // Margin max(10, 5) = 10 m: in within 90 m (87 m at t = 43 s), out beyond 110 m (113 m at t = 83 s).
        #expect(events.count == 2)
        guard case .entered(_, let tIn, let dIn) = events[0], case .exited(_, let tOut, let dOut) = events[1] else {
            Issue.record("\(events)")
            return
        }
        #expect(tIn == Self.t0 + 43 && abs(dIn - 87) < 1e-6)
        #expect(tOut == Self.t0 + 83 && abs(dOut - 113) < 1e-6)
        #expect(try monitor.state(of: "tower") == .outside)
    }

    /// Standing still anywhere near the edge, with fixes jittering anywhere inside their
    /// accuracy circle, gives at most the one transition of arriving there.
    @Test(arguments: [3.0, 10, 25, 60])
    func jitterAtTheEdgeNeverFlaps(accuracy: Double) throws {
        var random = RandomSource(seed: UInt64(accuracy * 10))
        let radius = 150.0
        for offset in stride(from: -2 * accuracy - 10, through: 2 * accuracy + 10, by: max(1, accuracy / 4)) {
            var monitor = try RegionMonitor()
            try monitor.startMonitoring(Self.region(radius: radius))
            _ = monitor.update(with: Self.fix(radius + 500, time: 0, accuracy: accuracy))
            var transitions = 0
            for i in 1...400 {
                // A point uniformly inside the accuracy circle around the standing point.
                let r = accuracy * random.uniform().squareRoot(), angle = 360 * random.uniform()
                let standing = try Geodesic.wgs84.direct(from: Self.center, bearing: 45, distance: radius + offset).destination
                let p = try Geodesic.wgs84.direct(from: standing, bearing: angle, distance: r).destination
                let fix = Location(latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: accuracy, timestamp: Self.t0 + Double(i))
                transitions += monitor.update(with: fix).count
            }
            #expect(transitions <= 1, "accuracy \(accuracy) m, standing \(offset) m from the edge: \(transitions) transitions")
        }
    }

    /// Without a reported accuracy (or a better one), the minimum margin holds the state.
    @Test func minimumMarginAppliesWithoutAccuracy() throws {
        var monitor = try RegionMonitor(settings: .init(minimumMargin: 20))
        try monitor.startMonitoring(Self.region())
        _ = monitor.update(with: Self.fix(50, time: 0, accuracy: nil))
        #expect(try monitor.state(of: "tower") == .inside)
        #expect(monitor.update(with: Self.fix(119, time: 1, accuracy: nil)).isEmpty)
        #expect(monitor.update(with: Self.fix(119, time: 2, accuracy: 1)).isEmpty)
        #expect(monitor.update(with: Self.fix(121, time: 3, accuracy: nil)).count == 1)
        #expect(monitor.update(with: Self.fix(80.1, time: 4, accuracy: 2)).isEmpty)
        #expect(monitor.update(with: Self.fix(79.9, time: 5, accuracy: 2)).count == 1)
    }

    /// A poor fix widens the band: 40 m accuracy needs 140 m to leave and 60 m to enter.
    @Test func poorAccuracyWidensTheBand() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(Self.region())
        _ = monitor.update(with: Self.fix(200, time: 0, accuracy: 40))
        #expect(monitor.update(with: Self.fix(60.1, time: 1, accuracy: 40)).isEmpty)
        #expect(monitor.update(with: Self.fix(59.9, time: 2, accuracy: 40)).count == 1)
        #expect(monitor.update(with: Self.fix(140, time: 3, accuracy: 40)).isEmpty)
        #expect(monitor.update(with: Self.fix(141, time: 4, accuracy: 40)).count == 1)
    }

    /// A region smaller than twice the margin is entered within half its radius.
    @Test func smallRegionIsEnteredNearItsCentre() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(Self.region(radius: 12))
        _ = monitor.update(with: Self.fix(100, time: 0))
        #expect(monitor.update(with: Self.fix(6.1, time: 1)).isEmpty)
        #expect(monitor.update(with: Self.fix(5.9, time: 2)).count == 1)
        #expect(monitor.update(with: Self.fix(21.9, time: 3)).isEmpty)
        #expect(monitor.update(with: Self.fix(22.1, time: 4)).count == 1)
    }

    @Test func firstFixSetsTheStateSilentlyAndRequestStateReportsIt() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(Self.region("a"))
        try monitor.startMonitoring(Self.region("b", radius: 10))
        #expect(try monitor.state(of: "a") == .unknown)
        #expect(try monitor.requestState(identifier: "a") == nil)
        let events = monitor.update(with: Self.fix(50, time: 0))
        #expect(events == [.determinedState(identifier: "a", state: .inside)])
        #expect(try monitor.state(of: "b") == .outside)
        #expect(try monitor.requestState(identifier: "b") == .determinedState(identifier: "b", state: .outside))
        // A later fix does not repeat the answer.
        #expect(monitor.update(with: Self.fix(50, time: 1)).isEmpty)
        #expect(throws: RegionError.unknownIdentifier("c")) { try monitor.requestState(identifier: "c") }
    }

    @Test func dwellIsReportedOncePerStay() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(Self.region(dwell: 30))
        _ = monitor.update(with: Self.fix(300, time: 0))
        var events: [RegionEvent] = []
        for t in 1...100 { events += monitor.update(with: Self.fix(t < 60 ? 20 : 300, time: Double(t))) }
        for t in 101...200 { events += monitor.update(with: Self.fix(t < 120 ? 20 : 300, time: Double(t))) }
        #expect(events == [
            .entered(identifier: "tower", time: Self.t0 + 1, distance: events[0].distance),
            .dwelled(identifier: "tower", time: Self.t0 + 31, duration: 30),
            .exited(identifier: "tower", time: Self.t0 + 60, distance: events[2].distance),
            .entered(identifier: "tower", time: Self.t0 + 101, distance: events[3].distance),
            .exited(identifier: "tower", time: Self.t0 + 120, distance: events[4].distance),
        ])
    }

    @Test func notifyFlagsSilenceEventsButNotState() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(try CircularRegion(identifier: "quiet", center: Self.center, radius: 100,
                                                       notifyOnEntry: false, notifyOnExit: true))
        _ = monitor.update(with: Self.fix(300, time: 0))
        #expect(monitor.update(with: Self.fix(0, time: 1)).isEmpty)
        #expect(try monitor.state(of: "quiet") == .inside)
        #expect(monitor.update(with: Self.fix(300, time: 2)).count == 1)
    }

    @Test func badFixesAreIgnored() throws {
        var monitor = try RegionMonitor()
        try monitor.startMonitoring(Self.region())
        _ = monitor.update(with: Self.fix(300, time: 10))
        #expect(monitor.update(with: Location(latitude: .nan, longitude: 2, timestamp: Self.t0 + 11)).isEmpty)
        #expect(monitor.update(with: Location(latitude: 48, longitude: 200, timestamp: Self.t0 + 12)).isEmpty)
        #expect(monitor.update(with: Self.fix(0, time: 9)).isEmpty, "an older fix")
        #expect(try monitor.state(of: "tower") == .outside)
        #expect(monitor.update(with: Self.fix(0, time: 13)).count == 1)
    }

    @Test func limitsAndReplacement() throws {
        var monitor = try RegionMonitor(settings: .init(maximumRegions: 2))
        try monitor.startMonitoring(Self.region("a"))
        try monitor.startMonitoring(Self.region("b"))
        #expect(throws: RegionError.tooManyRegions(limit: 2)) { try monitor.startMonitoring(Self.region("c")) }
        _ = monitor.update(with: Self.fix(0, time: 0))
        // Same identifier: replaced, state starts over.
        try monitor.startMonitoring(Self.region("a", radius: 10))
        #expect(monitor.regions.map(\.radius) == [10, 100])
        #expect(try monitor.state(of: "a") == .unknown)
        #expect(try monitor.stopMonitoring(identifier: "b").identifier == "b")
        #expect(throws: RegionError.unknownIdentifier("b")) { try monitor.stopMonitoring(identifier: "b") }
        #expect(throws: RegionError.self) { try monitor.startMonitoring(Self.region("far", radius: 2_000_000)) }
    }

    @Test func invalidRegionsAreRefused() {
        #expect(throws: RegionError.emptyIdentifier) { try CircularRegion(identifier: "", center: Self.center, radius: 1) }
        #expect(throws: RegionError.identifierHasControlCharacters("a\nb")) {
            try CircularRegion(identifier: "a\nb", center: Self.center, radius: 1)
        }
        #expect(throws: RegionError.self) { try CircularRegion(identifier: String(repeating: "x", count: 257), center: Self.center, radius: 1) }
        for radius in [0, -1, Double.nan, .infinity] {
            #expect(throws: RegionError.self) { try CircularRegion(identifier: "r", center: Self.center, radius: radius) }
        }
        #expect(throws: RegionError.self) { try CircularRegion(identifier: "r", center: Self.center, radius: 5, dwellTime: 0) }
        #expect(throws: LocationSettingError.self) { try RegionMonitor(settings: .init(maximumRegions: 0)) }
    }
}

extension RegionEvent {
    /// The distance of an entered or exited event (0 otherwise), for building expected lists.
    var distance: Double {
        switch self {
        case .entered(_, _, let d), .exited(_, _, let d): return d
        default: return 0
        }
    }
}
