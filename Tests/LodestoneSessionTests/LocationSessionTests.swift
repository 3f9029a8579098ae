import LodestoneLocation
import LodestonePosition
import LodestoneSession
import LodestoneSteering
import LodestoneTestSupport
import Testing

@Suite struct LocationSessionTests {
    static let t0 = 1_780_000_000.0
    static let start = try! GeoCoordinate(latitude: 47.3769, longitude: 8.5417)

    /// A fix `north` metres due north of the start (on the geodesic), at `t0 + time`.
    func fix(north: Double, time: Double, accuracy: Double = 3, speed: Double? = nil) -> Location {
        let p = try! Geodesic.wgs84.direct(from: Self.start, bearing: 0, distance: north).destination
        return Location(latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: accuracy, speed: speed, timestamp: Self.t0 + time)
    }

    func events(_ outputs: [LocationSession.Output]) -> [String] {
        outputs.compactMap { if case .event(let e) = $0 { return "\(e.name.rawValue) \(e.reason.rawValue)" } else { return nil } }
    }

    func locations(_ outputs: [LocationSession.Output]) -> [Location] {
        outputs.compactMap { if case .location(let l) = $0 { return l } else { return nil } }
    }

    /// Bad fixes are refused with an event naming the fault and change nothing: the next
    /// good fix is judged against the last good one.
    @Test func refusesBadFixesWithAnEventEach() throws {
        var session = try LocationSession()
        #expect(locations(session.received(.fix(fix(north: 0, time: 0)))).count == 1)
        var nan = fix(north: 10, time: 1)
        nan.latitude = .nan
        #expect(events(session.received(.fix(nan))) == ["locationRejected latitudeOutOfRange"])
        #expect(events(session.received(.fix(fix(north: 50_000, time: 2)))) == ["locationRejected implausibleJump"])
        #expect(events(session.received(.fix(fix(north: 6, time: -1)))) == ["locationRejected outOfOrder"])
        var badSpeed = fix(north: 20, time: 3)
        badSpeed.speed = -1
        let outputs = session.received(.fix(badSpeed))
        #expect(events(outputs) == ["locationValueDiscarded speed"])
        #expect(locations(outputs).first?.speed == nil && session.latest?.timestamp == Self.t0 + 3)
    }

    /// gpsd reports an NMEA receiver's first epoch twice (after RMC, then with GGA's altitude and
    /// accuracy): the second report completes the fix; a consumer that dropped the first for its
    /// accuracy takes the second, one that took the first does not get the epoch again.
    @Test func aSecondReportOfAnEpochCompletesIt() throws {
        var session = try LocationSession()
        var tookFirst = try LocationDelivery(), wantsAccuracy = try LocationDelivery(desiredAccuracy: 20)
        var rmc = fix(north: 0, time: 0, speed: 2)
        rmc.horizontalAccuracy = nil
        var gga = fix(north: 0, time: 0, accuracy: 17.1)
        gga.altitude = 400
        let first = locations(session.received(.fix(rmc)))
        #expect(first.count == 1 && tookFirst.deliver(first[0]) && !wantsAccuracy.deliver(first[0]))
        let outputs = session.received(.fix(gga))
        #expect(events(outputs).isEmpty, "no outOfOrder for the same epoch")
        let second = try #require(locations(outputs).first)
        #expect(second.speed == 2 && second.altitude == 400 && second.horizontalAccuracy == 17.1)
        #expect(!tookFirst.deliver(second) && wantsAccuracy.deliver(second))
        #expect(session.received(.fix(gga)).isEmpty, "a plain repeat")
    }

    /// The source's state is told once per change.
    @Test func availabilityOncePerChange() throws {
        var session = try LocationSession()
        #expect(events(session.received(.link(problem: "Connection refused"))) == ["locationUnavailable sourceUnreachable"])
        #expect(events(session.received(.link(problem: "Connection refused"))).isEmpty)
        #expect(events(session.received(.fix(fix(north: 0, time: 0)))) == ["locationAvailable fixReceived"])
        #expect(events(session.received(.fix(fix(north: 1, time: 1)))).isEmpty)
        #expect(events(session.received(.fixLost)) == ["locationUnavailable noFix"])
    }

    /// Each consumer's distanceFilter counts from the fix last delivered to it; its
    /// desiredAccuracy drops worse fixes. Fixes every 3 m: a 10 m filter takes every fourth.
    @Test func consumersFilterOnTheirOwn() throws {
        var session = try LocationSession()
        var everyTen = try LocationDelivery(distanceFilter: 10)
        var accurate = try LocationDelivery(desiredAccuracy: 5)
        var delivered: [Double] = [], accurateOnes: [Double] = []
        for i in 0..<13 {
            for l in locations(session.received(.fix(fix(north: Double(i) * 3, time: Double(i), accuracy: i % 2 == 0 ? 3 : 8)))) {
                if everyTen.deliver(l) { delivered.append(l.timestamp - Self.t0) }
                if accurate.deliver(l) { accurateOnes.append(l.timestamp - Self.t0) }
            }
        }
        #expect(delivered == [0, 4, 8, 12])
        #expect(accurateOnes == [0, 2, 4, 6, 8, 10, 12])
    }

    /// Regions see every accepted fix; a change of the regions or their states is to be saved once.
    @Test func regionsAndTheirChanges() throws {
        var session = try LocationSession()
        let centre = try Geodesic.wgs84.direct(from: Self.start, bearing: 0, distance: 200).destination
        try session.startMonitoring(CircularRegion(identifier: "gate", center: centre, radius: 50))
        #expect(session.takeRegionChanges()?.entries.count == 1)
        #expect(session.takeRegionChanges() == nil)
        var regionEvents: [String] = []
        for i in 0...40 {
            for case .region(let e) in session.received(.fix(fix(north: Double(i) * 10, time: Double(i)))) {
                if case .entered(let id, _, let d) = e { regionEvents.append("entered \(id) \(Int(d.rounded()))") }
                if case .exited(let id, _, let d) = e { regionEvents.append("exited \(id) \(Int(d.rounded()))") }
            }
        }
        // Margin max(10 m, 3 m accuracy): entered within 40 m, left beyond 60 m.
        #expect(regionEvents == ["entered gate 40", "exited gate 70"])
        #expect(session.takeRegionChanges()?.entries.first?.state == .outside)
        try session.stopMonitoring(identifier: "gate")
        #expect(session.takeRegionChanges()?.entries.isEmpty == true)
    }

    /// A replayed track's old times record as well as live ones: commands take the last
    /// fix's time. The recorder stops by itself at its limit.
    @Test func routeRecordingOnFixTimesWithALimit() throws {
        var session = try LocationSession(settings: .init(maximumRoutePoints: 5))
        _ = session.received(.fix(fix(north: 0, time: 0, speed: 0)))
        try session.route(.start, wallClock: 2_000_000_000)
        var outputs: [LocationSession.Output] = []
        for i in 1...6 { outputs += session.received(.fix(fix(north: Double(i) * 20, time: Double(i), speed: 20))) }
        #expect(events(outputs) == ["trackStopped full"])
        let s = session.routeStatistics
        #expect(s.state == .stopped && s.pointCount == 5)
        #expect(abs(s.distance - 80) < 1e-6, "four 20 m steps after the first recorded fix: \(s.distance)")
        #expect(s.elapsedTime == 5)
        #expect(throws: RouteRecorderError.self) { try session.route(.pause, wallClock: 0) }
        try session.route(.start, wallClock: 0)
        #expect(session.routeStatistics.pointCount == 0)
    }

    /// A start before any fix starts the route with the first fix, whatever its time.
    @Test func routeStartedBeforeTheFirstFix() throws {
        var session = try LocationSession()
        try session.route(.start, wallClock: 2_000_000_000)
        #expect(session.routeStatistics.state == .recording)
        for i in 0...3 { _ = session.received(.fix(fix(north: Double(i) * 20, time: Double(i), speed: 20))) }
        let s = session.routeStatistics
        #expect(s.pointCount == 4 && abs(s.distance - 60) < 1e-6 && s.elapsedTime == 3, "\(s)")
        #expect(throws: RouteRecorderError.self) { try session.route(.start, wallClock: 0) }
    }

    /// Saved regions come back with their states; a bad file names the field and is not overwritten.
    @Test func regionFileRoundTripAndBadFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("regions.json")
        #expect(try RegionFile.load(path, settings: .init()) == nil)
        var session = try LocationSession()
        try session.startMonitoring(CircularRegion(identifier: "home", center: Self.start, radius: 100, dwellTime: 30))
        _ = session.received(.fix(fix(north: 0, time: 0)))
        let changes = session.takeRegionChanges()
        try RegionFile.save(try #require(changes), to: path, settings: .init())
        let restored = try #require(try RegionFile.load(path, settings: .init()))
        #expect(restored.entries.first?.state == .inside && restored.entries.first?.insideSince == Self.t0)
        let bad = dir.file("bad.json", #"{"formatVersion":1,"regions":[{"identifier":"x","latitude":95,"longitude":0,"radius":10}]}"#)
        do {
            _ = try RegionFile.load(bad, settings: .init())
            Issue.record("a latitude of 95° was accepted")
        } catch {
            #expect(error.kind == .badInput && error.description.contains("regions[0].latitude") && error.description.contains(bad), "\(error)")
        }
    }

    /// NMEA logs with a broken line replay the rest and say what was skipped; GPX needs times;
    /// anything else is refused naming the file.
    @Test func positionLogs() throws {
        let dir = TemporaryDirectory()
        func nmea(_ body: String) -> String {
            "$" + body + "*" + String(body.utf8.reduce(UInt8(0), ^), radix: 16, uppercase: true).leftPadded + "\r\n"
        }
        let text = nmea("GPRMC,120000.00,A,4722.6140,N,00832.5020,E,0.0,0.0,010626,,,A")
            + "$GPRMC,120001.00,A,4722.6150,N,00832.5020,E,0.0,0.0,010626,,,A*00\r\n"
            + nmea("GPRMC,120002.00,A,4722.6160,N,00832.5020,E,0.0,0.0,010626,,,A")
        let (fixes, notes) = try PositionLog.load(dir.file("log.nmea", text))
        #expect(fixes.count == 2 && fixes[1].timestamp - fixes[0].timestamp == 2)
        #expect(notes.count == 1 && notes[0].contains("line 2") && notes[0].contains("checksum"), "\(notes)")
        let gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + #"<trkpt lat="47.1" lon="8.5"><time>2026-06-01T12:00:00Z</time></trkpt><trkpt lat="47.2" lon="8.5"/></trkseg></trk></gpx>"#
        #expect(try PositionLog.load(dir.file("t.gpx", gpx)).fixes.count == 1)
        #expect(throws: SessionError.self) { try PositionLog.load(dir.file("x.csv", "time,lat\n")) }
        do {
            _ = try PositionLog.load(dir.path("missing.gpx"))
        } catch {
            #expect(error.kind == .inaccessible && error.description.contains("missing.gpx"))
        }
    }
}

extension String {
    /// Two hex digits.
    var leftPadded: String { count < 2 ? "0" + self : self }
}
