import Foundation
import LodestoneLocation
import LodestoneTestSupport
import Testing

/// The location half with real parts: a real gpsd reads a drive north along the meridian
/// 8° E at 20 m/s that crosses region A, enters region B and stops in it (a dwell), drives
/// on and arrives at a STEER target. `lodestone serve` takes gpsd's fixes; the
/// `lodestone regions` and `lodestone track` commands act on it. Every event is checked
/// against the drive's design, and the exported GPX against GeographicLib's GeodSolve.
/// Part of the serialized gpsd suite: two gpsd runs at once starve each other on a busy machine.
///
/// gpsd reads the drive's NMEA from a TCP feed (`NMEAFeeder`) that holds it back until the
/// test says go, once `serve` is connected. gpsfake cannot: it starts gpsd and feeds it at
/// once, and `serve`, which had been retrying gpsd with a doubling back-off meanwhile, saw
/// the drive only from its next retry on (in CI once 13 fixes late).
extension GPSDIntegrationTests {
    static let startLatitude = 47.0
    static let target = 1500.0, arrivalRadius = 25.0

    /// The drive: (seconds after 12:00:00, metres north of the start, speed m/s).
    static let drive: [(second: Int, north: Double, speed: Double)] = {
        var d: [(Int, Double, Double)] = []
        for t in 0...40 { d.append((t, 20 * Double(t), 20)) }            // 0 → 800 m
        for t in 41...55 { d.append((t, 800, 0)) }                        // stopped in region B
        for t in 56...91 { d.append((t, 800 + 20 * Double(t - 55), 20)) } // 820 → 1520 m
        for t in 92...96 { d.append((t, 1520, 0)) }                       // stopped at the target
        return d
    }()
    static let latitudes = drive.map { TestTracks.written(TestTracks.latitude($0.north, northOf: startLatitude)) }
    static func north(_ metres: Double) -> Double { TestTracks.latitude(metres, northOf: startLatitude) }

    /// The second of the first fix meeting `condition` on its distance (metres) from `centre` (metres north).
    static func firstSecond(after: Int = -1, centre: Double, _ condition: (Double) -> Bool) -> Int? {
        let c = north(centre)
        return zip(drive, latitudes).first { $0.0.second > after && condition(abs(TestTracks.meridianArc(c, $0.1))) }?.0.second
    }

    @Test func aGpsdDriveThroughTwoRegionsToASteerTarget() throws {
        try #require(GPSDTools.problem == nil, "gpsd integration cannot run: \(GPSDTools.problem ?? "")")
        let geodSolve = try #require(GeodSolveProcess.executable, "GeodSolve not found (Debian geographiclib-tools)")
        let dir = scratch.path, socket = scratch.file("s.sock")
        TestLogs.spin(scratch.file("hold.csv"), start: 10, rate: 0, seconds: 60)
        scratch.write("drive.nmea", TestTracks.nmea(zip(Self.drive, Self.latitudes).map { TestTracks.Fix(latitude: $1, speed: $0.speed, second: $0.second) }))
        // As in GPSDIntegrationTests: a private network and PID namespace. gpsd reads the
        // feeder, which sends the drive once when the test says go.
        let script = """
            set -u
            cd '\(dir)'
            ip link set lo up
            \(NMEAFeeder.start(log: "drive.nmea", lineInterval: 0.03, waitFor: "go", holdUntil: "stop-serve"))
            \(NMEAFeeder.gpsd(port: 29470))
            '\(Lodestone.executable)' serve --source replay:hold.csv --loop --gpsd 127.0.0.1:29470 --socket '\(socket)' \\
                --regions-file '\(dir)/regions.json' --year 2026.9 2> serve.stderr &
            SERVE=$!
            while [ ! -e stop-serve ]; do sleep 0.05; done
            kill -TERM $SERVE
            wait $SERVE
            echo $? > serve.status
            """
        let namespace = try ServiceProcess([], scratch: scratch, wrapper: ["unshare", "--net", "--pid", "--fork", "--kill-child", "bash", "-c", script],
                                           name: "namespace")
        defer {
            scratch.write("go", "")
            scratch.write("stop-serve", "")
        }
        guard ServiceProcess.waitForSocket(socket, timeout: 15) else {
            Issue.record("the service did not start: \(scratch.read("serve.stderr")) \(namespace.stderr)")
            return
        }
        // Regions through the CLI: A crossed, B entered, dwelt in (the stop) and left.
        let a = Self.north(300), b = Self.north(800)
        let addA = try Lodestone.run(["regions", "add", "A", "--lat", "\(a)", "--lon", "8", "--radius", "100", "--socket", socket])
        #expect(addA.status == 0 && addA.output.contains("A: "), "\(addA)")
        let addB = try Lodestone.run(["regions", "add", "B", "--lat", "\(b)", "--lon", "8", "--radius", "150", "--dwell", "12", "--socket", socket])
        #expect(addB.status == 0 && addB.output.contains("dwell 12 s"), "\(addB)")
        let started = try Lodestone.run(["track", "start", "--socket", socket])
        #expect(started.status == 0 && started.output.hasPrefix("recording:"), "\(started)")
        guard waitUntil(20, { scratch.read("serve.stderr").contains("connected to gpsd at") }) else {
            Issue.record("serve did not reach gpsd: \(scratch.read("serve.stderr")) \(scratch.read("gpsd.log")) \(scratch.read("feeder.log"))")
            return
        }

        let steering = try ProtocolClient(path: socket), far = try ProtocolClient(path: socket)
        steering.send(#"?WATCH={"enable":true,"headingFilter":10,"location":true,"regions":true};"# + "\n")
        steering.send(#"?STEER={"lat":\#(Self.north(Self.target)),"lon":8,"arrivalRadius":\#(Self.arrivalRadius)};"# + "\n")
        far.send(#"?WATCH={"enable":true,"heading":false,"location":true,"distanceFilter":100};"# + "\n")
        _ = steering.read(class: "WATCH")
        _ = far.read(class: "WATCH")
        scratch.write("go", "")
        let lastTime = "2026-12-01T12:01:36.000Z"
        guard steering.read(until: { $0.className == "LOCATION" && $0.string("time") == lastTime }, timeout: 40) != nil else {
            Issue.record("the drive did not arrive: \(scratch.read("serve.stderr")) \(scratch.read("gpsd.log")) \(scratch.read("feeder.log"))")
            return
        }
        let stopped = try Lodestone.run(["track", "stop", "--socket", socket, "--json"])
        let export = try Lodestone.run(["track", "export", "-o", scratch.file("drive.gpx"), "--name", "drive", "--socket", socket])
        let listed = try Lodestone.run(["regions", "list", "--socket", socket, "--json"])
        _ = far.collect(for: 0.3)
        scratch.write("stop-serve", "")
        let objects = steering.lines.compactMap(ProtocolClient.object) + steering.readToEnd(timeout: 10)
        #expect(namespace.waitExit(timeout: 10) != nil)
        #expect(scratch.read("serve.status").hasPrefix("0"), "\(scratch.read("serve.stderr"))")

        // 1. Fixes: every epoch once, in order, where the drive put it; gpsd's first epoch came
        // twice (after RMC, then GGA) and was merged, not refused.
        let locations = objects.filter { $0.className == "LOCATION" }
        let times = locations.compactMap { $0.string("time") }
        // Required: every check below pairs the objects with the drive's fixes one by one.
        try #require(times.count == Self.drive.count && Set(times).count == times.count, "\(times.count) LOCATIONs for \(Self.drive.count) fixes")
        for (l, expected) in zip(locations, Self.latitudes) {
            #expect(abs((l.double("lat") ?? 0) - expected) < 1e-9 && l.double("lon") == 8, "\(l)")
        }
        let events = objects.filter { $0.className == "EVENT" }.map { "\($0.string("event") ?? "") \($0.string("reason") ?? "")" }
        #expect(!events.contains { $0.hasPrefix("locationRejected") }, "\(events)")
        #expect(events.contains("trueHeadingAvailable positionKnown") && events.contains("locationAvailable fixReceived"), "\(events)")
        let eph = locations.compactMap { $0.double("horizontalAccuracy") }.max() ?? 0
        let margin = max(10, eph)

        // 2. Regions: A entered within 100 − m and left beyond 100 + m; B likewise with radius
        // 150, and dwelt in 12 s after entering (during the stop).
        let regions = objects.filter { $0.className == "REGION" }
        let seen = regions.map { "\($0.string("event") ?? "") \($0.string("identifier") ?? "") \($0.string("time")?.dropFirst(14).prefix(5) ?? "")" }
        func stamp(_ s: Int?) -> String { String(format: "%02d:%02d", (s ?? 0) / 60, (s ?? 0) % 60) }
        let enterA = Self.firstSecond(centre: 300) { $0 <= max(100 - margin, 50) }
        let exitA = Self.firstSecond(after: enterA ?? 0, centre: 300) { $0 > 100 + margin }
        let enterB = Self.firstSecond(centre: 800) { $0 <= max(150 - margin, 75) }
        let exitB = Self.firstSecond(after: 55, centre: 800) { $0 > 150 + margin }
        let dwellB = (enterB ?? 0) + 12
        #expect(seen == ["entered A \(stamp(enterA))", "exited A \(stamp(exitA))", "entered B \(stamp(enterB))", "dwelled B \(stamp(dwellB))",
                         "exited B \(stamp(exitB))"], "margin \(margin) m: \(seen)")
        #expect(regions.first.flatMap { $0.double("distance") }.map { $0 <= 100 - margin } == true)
        let listedRegions = (ProtocolClient.object(listed.output)?["regions"] as? [[String: Any]]) ?? []
        #expect(listedRegions.map { "\($0.string("identifier") ?? "") \($0.string("state") ?? "")" } == ["A outside", "B outside"], "\(listed)")

        // 3. STEER with every fix (the heading moved less than the 10° filter: one HEADING), the
        // distance along the meridian, one arrival with the final distance, no ETA from then on.
        let steers = objects.filter { $0.className == "STEER" }
        #expect(objects.filter { $0.className == "HEADING" }.count <= 2)
        let fixSteers = Array(steers.suffix(Self.drive.count))
        try #require(steers.count >= Self.drive.count, "\(steers.count) STEER objects for \(Self.drive.count) fixes")
        let targetLatitude = Self.north(Self.target)
        var arrivedAt: Int?
        for (i, (s, lat)) in zip(fixSteers, Self.latitudes).enumerated() {
            let truth = TestTracks.meridianArc(lat, targetLatitude)
            #expect(abs((s.double("distance") ?? .nan) - abs(truth)) < 0.01, "fix \(i): \(s)")
            #expect(s.double("bearing") == (truth > 0 ? 0 : 180), "fix \(i): bearing \(s.double("bearing") ?? .nan)")
            if s["justArrived"] as? Bool == true { arrivedAt = arrivedAt ?? i }
            let moving = Self.drive[i].speed > 0
            if arrivedAt != nil || !moving {
                #expect(s["eta"] is NSNull, "fix \(i): no ETA when arrived or stopped: \(s)")
            } else {
                #expect(abs((s.double("eta") ?? .nan) - abs(truth) / 20) < 0.06, "fix \(i): \(s)")
            }
        }
        let arrivals = objects.filter { $0.string("event") == "steerArrived" }
        #expect(fixSteers.filter { $0["justArrived"] as? Bool == true }.count == 1 && arrivals.count == 1, "\(arrivals)")
        let expectedArrival = Self.drive.firstIndex { abs($0.north - Self.target) <= Self.arrivalRadius }
        #expect(arrivedAt == expectedArrival, "arrived at fix \(arrivedAt ?? -1), expected \(expectedArrival ?? -1)")
        #expect(abs((arrivals.first?.double("distance") ?? .nan) - abs(Self.drive[expectedArrival ?? 0].north - Self.target)) < 0.01)
        #expect(fixSteers[(expectedArrival ?? 0)...].allSatisfy { $0["arrived"] as? Bool == true && $0["turn"] is NSNull })

        // 4. The far client: LOCATIONs at least 100 m apart, no HEADING.
        let farFixes = far.lines.compactMap(ProtocolClient.object).filter { $0.className == "LOCATION" }
        #expect(farFixes.count >= 14 && !far.lines.contains { $0.contains("\"HEADING\"") })
        for (x, y) in zip(farFixes, farFixes.dropFirst()) {
            #expect(TestTracks.meridianArc(x.double("lat") ?? 0, y.double("lat") ?? 0) >= 100 - 1e-6)
        }

        // 5. The track: moving time from the reported speeds, the GPX distance leg by leg
        // against GeodSolve, and the recorded distance against GeodSolve over the steps the
        // recorder counts (beyond the two fixes' accuracies; 5 m where none is given).
        let track = try #require(ProtocolClient.object(stopped.output), "\(stopped)")
        #expect(track.string("state") == "stopped" && track.double("points") == Double(Self.drive.count), "\(track)")
        #expect(track.double("movingTime") == 76 && track.double("elapsedTime") == 96, "\(track)")
        #expect(export.status == 0, "\(export)")
        let gpx = try GPXReader.read(String(contentsOfFile: scratch.file("drive.gpx"), encoding: .utf8))
        let points = gpx.tracks.flatMap { $0.segments.flatMap { $0 } }
        #expect(points.count == Self.drive.count && gpx.tracks.first?.name == "drive")
        let legs = zip(points, points.dropFirst()).map { ($0, $1) }
        let answers = try GeodSolveProcess.run(geodSolve, arguments: ["-i", "-p", "9"],
                                               lines: legs.map { "\($0.0.latitude) \($0.0.longitude) \($0.1.latitude) \($0.1.longitude)" })
        let reference = try answers.map { try #require(Double($0.split(separator: " ")[2]), "\($0)") }
        for (i, d) in reference.enumerated() {
            let truth = abs(TestTracks.meridianArc(Self.latitudes[i], Self.latitudes[i + 1]))
            #expect(abs(d - truth) <= 1e-3, "leg \(i): GeodSolve \(d) m, the drive's \(truth) m")
        }
        // On one meridian, driving one way, distances add: from the anchor to point i is the sum of GeodSolve's legs between.
        var cumulative = [0.0]
        for d in reference { cumulative.append(cumulative.last! + d) }
        var anchor = 0, counted = 0.0, steps = 0
        for i in 1..<points.count {
            let d = cumulative[i] - cumulative[anchor]
            if d > max(1, (points[anchor].horizontalAccuracy ?? 5) + (points[i].horizontalAccuracy ?? 5)) {
                counted += d
                steps += 1
                anchor = i
            }
        }
        #expect(abs((track.double("distance") ?? .nan) - counted) <= 1e-3 * Double(steps), "TRACK \(track.double("distance") ?? .nan) m, GeodSolve \(counted) m in \(steps) steps")
        print("measured gpsd drive: \(times.count) fixes, regions \(seen), arrival at fix \(arrivedAt ?? -1), track \(track.double("distance") ?? .nan) m vs GeodSolve \(counted) m (\(steps) steps), eph \(eph) m")
    }
}
