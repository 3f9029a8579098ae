import Testing
import LodestoneCore
import LodestoneSteering
@testable import LodestoneLocation

/// The parts together, as `serve` will wire them: an NMEA log of a drive north at
/// 30 m/s that crosses two regions, stops for a minute inside the second, drives on
/// and reaches a steering target. Replayed through the reader, the filter, the
/// region monitor, the route recorder and the turn advisor.
@Suite struct ReplayScenarioTests {
    static let start = try! GeoCoordinate(latitude: 47.0, longitude: 8.0)
    static let day = 1_767_225_600.0  // 2026-01-01

    /// Metres north of the start at second t: 30 m/s, stopped from 100 s to 160 s.
    static func northing(_ t: Int) -> Double {
        if t <= 100 { return 30 * Double(t) }
        if t <= 160 { return 3000 }
        return 3000 + 30 * Double(t - 160)
    }

    static func coordinate(_ metres: Double) -> GeoCoordinate {
        try! Geodesic.wgs84.direct(from: start, bearing: 0, distance: metres).destination
    }

    /// `ddmm.mmmmm,H` for NMEA.
    static func nmeaAngle(_ degrees: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let a = abs(degrees), whole = Int(a), minutes = (a - Double(whole)) * 60
        let m = Int((minutes * 100_000).rounded())
        let d = String(whole), mm = String(m / 100_000), frac = String(m % 100_000)
        return String(repeating: "0", count: degreeDigits - d.count) + d + (mm.count < 2 ? "0" : "") + mm + "."
            + String(repeating: "0", count: 5 - frac.count) + frac + "," + (degrees < 0 ? negative : positive)
    }

    static func log(until end: Int) -> String {
        var lines: [String] = []
        for t in 0...end {
            let c = coordinate(northing(t))
            let time = "00" + (t / 60 < 10 ? "0" : "") + String(t / 60) + (t % 60 < 10 ? "0" : "") + String(t % 60) + ".00"
            let lat = nmeaAngle(c.latitude, degreeDigits: 2, positive: "N", negative: "S")
            let lon = nmeaAngle(c.longitude, degreeDigits: 3, positive: "E", negative: "W")
            // The speed over the second before the fix, as a receiver reports it.
            let moving = t > 0 && northing(t) > northing(t - 1)
            let knots = moving ? 30 * 3600 / 1852.0 : 0
            lines.append(NMEAReaderTests.sentence("GPRMC,\(time),A,\(lat),\(lon),\(knots),0.0,010126,,,A"))
            lines.append(NMEAReaderTests.sentence("GPGGA,\(time),\(lat),\(lon),1,09,0.8,420.0,M,48.0,M,,"))
            lines.append(NMEAReaderTests.sentence("GPGST,\(time),1.5,1.2,0.9,10.0,1.2,0.9,2.0"))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test func driveThroughTwoRegionsStopAndArrive() throws {
        let fixes = try NMEAReader.locations(in: Self.log(until: 220)).locations
        #expect(fixes.count == 221)
        var filter = try LocationFilter(settings: .init(distanceFilter: 0))
        var regions = try RegionMonitor()
        try regions.startMonitoring(try CircularRegion(identifier: "A", center: Self.coordinate(1000), radius: 205))
        try regions.startMonitoring(try CircularRegion(identifier: "B", center: Self.coordinate(3000), radius: 300, dwellTime: 30))
        var recorder = try RouteRecorder()
        try recorder.start(at: Self.day)
        var advisor = try TurnAdvisor(settings: .init(arrivalRadius: 100))
        let target = Self.coordinate(4500)

        var regionEvents: [RegionEvent] = []
        var arrivals: [(time: Double, distance: Double)] = []
        var delivered = 0
        for fix in fixes {
            for case .delivered(let location) in filter.process(fix) {
                delivered += 1
                regionEvents += regions.update(with: location)
                recorder.add(location)
                let advice = advisor.advise(from: location.coordinate!, to: target, heading: location.course, groundSpeed: location.speed)
                if advice.justArrived { arrivals.append((location.timestamp, advice.distance)) }
                if advice.arrived { #expect(advice.eta == nil) }
            }
        }
        #expect(delivered == 221)
        // Accuracy √(1.2² + 0.9²) = 1.5 m, so the margin is the 10 m minimum: enter within r − 10, leave beyond r + 10.
        let summary = regionEvents.map { e -> String in
            switch e {
            case let .entered(id, t, _): return "enter \(id) \(Int(t - Self.day))"
            case let .exited(id, t, _): return "exit \(id) \(Int(t - Self.day))"
            case let .dwelled(id, t, _): return "dwell \(id) \(Int(t - Self.day))"
            case let .determinedState(id, s): return "\(id) \(s)"
            }
        }
        // A: within 195 m from 810 m north (27 s), beyond 215 m at 1230 m (41 s). B: within 290 m
        // from 2730 m (91 s), dwell 30 s later, beyond 310 m at 3330 m (171 s).
        #expect(summary == ["enter A 27", "exit A 41", "enter B 91", "dwell B 121", "exit B 171"])
        // Arrival within 100 m of 4500 m north: first at 4410 m, t = 207 s; announced once.
        #expect(arrivals.count == 1)
        #expect(arrivals.first.map { Int($0.time - Self.day) } == 207)
        try recorder.stop(at: Self.day + 220)
        let stats = recorder.statistics()
        // 30 m/s for 100 s and 60 s: 4800 m, rounded at 1e-5 minutes (≤ 2 cm) per fix.
        #expect(abs(stats.distance - 4800) < 0.5, "\(stats.distance)")
        #expect(stats.movingTime == 160 && stats.elapsedTime == 220)
        #expect(abs((stats.maximumSpeed ?? 0) - 30) < 1e-9)
    }
}
