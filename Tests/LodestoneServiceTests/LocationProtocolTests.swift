import Foundation
import LodestoneLocation
import LodestoneTestSupport
import Testing

/// The location half of `lodestone serve` end to end over its Unix socket, with a
/// replayed NMEA track as the position (`--position-log`): no root needed. The gpsd
/// drive with every event is in `LocationGPSDTests`.
@Suite(.serialized) struct LocationProtocolTests {
    let scratch = ScratchDirectory()
    static let start = 47.0

    func start(_ arguments: [String]) throws -> (ServiceProcess, String) {
        let socket = scratch.file("s.sock")
        let p = try ServiceProcess(["--socket", socket, "--regions-file", scratch.file("regions.json")] + arguments, scratch: scratch)
        guard ServiceProcess.waitForSocket(socket) else {
            throw ProtocolClient.Failure(description: "the service did not come up: \(p.stderr)")
        }
        return (p, socket)
    }

    /// `count` fixes 20 m apart northward at 20 m/s, one a second; HDOP 0.5 (2.5 m) on even
    /// fixes, 2.0 (10 m) on odd ones.
    func drive(_ count: Int, name: String = "drive.nmea") -> (path: String, latitudes: [Double]) {
        let latitudes = (0..<count).map { TestTracks.written(TestTracks.latitude(20 * Double($0), northOf: Self.start)) }
        let fixes = latitudes.enumerated().map { TestTracks.Fix(latitude: $1, speed: 20, second: $0, hdop: $0 % 2 == 0 ? 0.5 : 2.0) }
        return (scratch.write(name, TestTracks.nmea(fixes)), latitudes)
    }

    func lat(_ o: [String: Any]) -> Double { o.double("lat") ?? .nan }

    /// A board held still (the heading source), and `fixes` of ``drive(_:name:)`` replayed at
    /// `speed` as the position.
    func startDriving(_ fixes: Int, speed: String, loop: Bool = false) throws -> (ServiceProcess, String, [Double]) {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, rate: 0, seconds: 600)
        let (path, latitudes) = drive(fixes)
        let (service, socket) = try start(["--source", "replay:\(log)", "--position-log", path, "--position-speed", speed]
                                              + (loop ? ["--position-loop"] : []))
        return (service, socket, latitudes)
    }

    /// Each client gets LOCATION objects after its own distanceFilter and desiredAccuracy; a
    /// client with heading:false gets no HEADING (and does not claim the sensors).
    @Test func eachClientHasItsOwnDistanceFilterAndDesiredAccuracy() throws {
        let (service, socket, latitudes) = try startDriving(60, speed: "20")
        let far = try ProtocolClient(path: socket), accurate = try ProtocolClient(path: socket)
        far.send(#"?WATCH={"enable":true,"heading":false,"location":true,"distanceFilter":50};"# + "\n")
        accurate.send(#"?WATCH={"enable":true,"heading":false,"location":true,"desiredAccuracy":5};"# + "\n")
        let reply = try #require(far.read(class: "WATCH"))
        #expect(reply["location"] as? Bool == true && reply["heading"] as? Bool == false && reply.double("distanceFilter") == 50)
        let farObjects = far.read(until: { $0.string("event") == "sourceEnded" }, timeout: 10).map { _ in far.lines.compactMap(ProtocolClient.object) } ?? []
        let accurateObjects = accurate.collect(for: 0.5)
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)

        #expect(!farObjects.contains { $0.className == "HEADING" } && !accurateObjects.contains { $0.className == "HEADING" })
        let farFixes = farObjects.filter { $0.className == "LOCATION" }
        #expect(farFixes.count >= 10, "\(farFixes.count) LOCATION objects")
        for (a, b) in zip(farFixes, farFixes.dropFirst()) {
            let d = TestTracks.meridianArc(lat(a), lat(b))
            #expect(d >= 50 && d < 60.01, "consecutive LOCATIONs \(d) m apart with distanceFilter 50")
        }
        let first = try #require(farFixes.first)
        #expect(Set(first.keys) == ["class", "time", "lat", "lon", "altitude", "ellipsoidalAltitude", "horizontalAccuracy", "verticalAccuracy",
                                    "speed", "speedAccuracy", "course", "courseAccuracy"])
        #expect(latitudes.contains { abs($0 - lat(first)) < 1e-9 } && first.double("lon") == 8 && first.double("altitude") == 400)
        #expect(first.double("ellipsoidalAltitude") == 448 && abs((first.double("speed") ?? 0) - 20) < 0.001 && first.double("course") == 0)
        let accurateFixes = accurateObjects.filter { $0.className == "LOCATION" }
        #expect(!accurateFixes.isEmpty && accurateFixes.allSatisfy { ($0.double("horizontalAccuracy") ?? 99) <= 5 }, "\(accurateFixes.prefix(3))")
        #expect(accurateFixes.count == Set(accurateFixes.map(lat)).count)
    }

    @Test func badWatchKeysAreRefused() throws {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, rate: 0, seconds: 60)
        let (service, socket) = try start(["--source", "replay:\(log)"])
        let c = try ProtocolClient(path: socket)
        for (line, message) in [(#"?WATCH={"location":true,"desiredAccuracy":0};"#, "?WATCH: desiredAccuracy must be a number of metres > 0"),
                                (#"?WATCH={"distanceFilter":-1};"#, "?WATCH: distanceFilter must be a number of metres ≥ 0"),
                                (#"?REGION={"action":"add","identifier":"x","lat":95,"lon":8,"radius":10};"#, "?REGION: region lat 95.0 is out of range"),
                                (#"?REGION={"action":"add","identifier":"x","lat":47,"lon":8,"radius":0};"#, "?REGION: region radius 0.0 is out of range"),
                                (#"?REGION={"action":"remove","identifier":"nope"};"#, "?REGION: no region with identifier 'nope'"),
                                (#"?REGION={"action":"move"};"#, "?REGION: action must be one of add, remove, state, list"),
                                (#"?TRACK={"action":"pause"};"#, "?TRACK: cannot pause a recording that is idle"),
                                (#"?TRACK={"action":"points","offset":-3};"#, "?TRACK: offset must be a whole number ≥ 0")] {
            c.send(line + "\n")
            let e = try #require(c.read(until: { $0.className == "ERROR" }), "no ERROR for \(line)")
            #expect(e.string("message")?.hasPrefix(message) == true, "\(line) → \(e)")
        }
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    /// Regions survive a restart with their states; a bad file is named with the field at fault,
    /// refused without stopping the service and never overwritten; once fixed, SIGHUP takes it.
    @Test func regionsPersistAndABadFileIsRefusedNotOverwritten() throws {
        var (service, socket, latitudes) = try startDriving(10, speed: "max")
        let log = scratch.file("hold.csv"), path = scratch.file("drive.nmea")
        var c = try ProtocolClient(path: socket)
        c.send(#"?REGION={"action":"add","identifier":"here","lat":\#(latitudes[9]),"lon":8,"radius":100,"dwellTime":30};"# + "\n")
        c.send(#"?REGION={"action":"add","identifier":"there","lat":48,"lon":8,"radius":500,"notifyOnEntry":false};"# + "\n")
        c.send(#"?REGION={"action":"add","identifier":"gone","lat":48,"lon":9,"radius":500};"# + "\n")
        c.send(#"?REGION={"action":"remove","identifier":"gone"};"# + "\n")
        c.send(#"?REGION={"action":"state","identifier":"here"};"# + "\n")
        var list: [[String: Any]] = []
        for _ in 0..<4 { list = try #require(c.read(class: "REGIONS"))["regions"] as? [[String: Any]] ?? [] }
        #expect(list.map { $0.string("identifier") ?? "" } == ["here", "there"])
        #expect(list[1]["notifyOnEntry"] as? Bool == false && list[0].double("dwellTime") == 30)
        // The whole log was replayed at start: the next fix that decides the state never comes;
        // the answer comes when the state is known. A restart replays the log again.
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        let saved = try #require(FileManager.default.contents(atPath: scratch.file("regions.json")))
        #expect(String(decoding: saved, as: UTF8.self).contains("\"here\""))

        (service, socket) = try start(["--source", "replay:\(log)", "--position-log", path, "--position-speed", "max"])
        c = try ProtocolClient(path: socket)
        c.send(#"?REGION={"action":"state","identifier":"here"};"# + "\n?REGION;\n")
        let state = try #require(c.read(class: "REGION"))
        #expect(state.string("event") == "determinedState" && state.string("state") == "inside", "\(state)")
        let again = try #require(c.read(class: "REGIONS")?["regions"] as? [[String: Any]])
        #expect(again.map { $0.string("state") ?? "" } == ["inside", "outside"], "\(again)")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)

        let bad = #"{"formatVersion":1,"regions":[{"identifier":"x","latitude":47,"longitude":8,"radius":-5}]}"#
        scratch.write("regions.json", bad)
        (service, socket) = try start(["--source", "replay:\(log)"])
        c = try ProtocolClient(path: socket)
        c.send(#"?REGION={"action":"add","identifier":"y","lat":47,"lon":8,"radius":10};"# + "\n?POLL;\n")
        let refused = try #require(c.read(class: "ERROR"))
        #expect(refused.string("message")?.contains("regions[0].radius") == true && refused.string("message")?.contains("regions.json") == true,
                "\(refused)")
        #expect(c.read(class: "POLL") != nil, "headings go on")
        #expect(scratch.read("regions.json") == bad, "the bad file was overwritten")
        #expect(service.stderr.contains("regions are unavailable"))
        scratch.write("regions.json", #"{"formatVersion":1,"regions":[{"identifier":"x","latitude":47,"longitude":8,"radius":5}]}"#)
        service.signal(SIGHUP)
        usleep(300_000)
        c.send("?REGION;\n")
        let fixed = try #require(c.read(class: "REGIONS")?["regions"] as? [[String: Any]])
        #expect(fixed.map { $0.string("identifier") ?? "" } == ["x"])
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    /// A track recorded from the stream: TRACK's figures against the meridian arc, and the
    /// pages of TRACKPOINTS are exactly the fixes the client saw as LOCATION objects.
    @Test func trackRecordsPausesAndPagesItsPoints() throws {
        // 5 s of fixes: a stalled machine that starts recording seconds late still records over 100.
        let (service, socket, _) = try startDriving(500, speed: "100")
        let c = try ProtocolClient(path: socket)
        c.send(#"?TRACK={"action":"start"};"# + "\n" + #"?WATCH={"enable":true,"heading":false,"location":true};"# + "\n")
        #expect(c.read(class: "TRACK")?.string("state") == "recording")
        _ = c.read(until: { $0.className == "LOCATION" })
        usleep(500_000)
        c.send(#"?TRACK={"action":"pause"};"# + "\n")
        usleep(300_000)
        c.send(#"?TRACK={"action":"resume"};"# + "\n")
        _ = c.read(until: { $0.string("event") == "sourceEnded" }, timeout: 15)
        c.send(#"?TRACK={"action":"stop"};"# + "\n")
        let objects = c.lines.compactMap(ProtocolClient.object)
        let track = try #require(c.read(until: { $0.className == "TRACK" && $0.string("state") == "stopped" }))
        var points: [[String: Any]] = []
        var offset = 0, total = 0
        repeat {
            c.send(#"?TRACK={"action":"points","offset":\#(offset)};"# + "\n")
            let page = try #require(c.read(class: "TRACKPOINTS"))
            total = Int(page.double("total") ?? 0)
            let list = page["points"] as? [[String: Any]] ?? []
            #expect(list.count <= 100 && Int(page.double("offset") ?? -1) == offset)
            points += list
            offset += list.count
            if list.isEmpty { break }
        } while offset < total
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)

        #expect(points.count == total && total == Int(track.double("points") ?? -1) && total > 100, "\(points.count) of \(total)")
        let segments = points.map { Int($0.double("segment") ?? -1) }
        #expect(segments.first == 0 && segments.last == 1 && segments == segments.sorted(), "pause and resume make two segments")
        // Every recorded point was a LOCATION the client saw (distanceFilter 0), in order.
        let seen = objects.filter { $0.className == "LOCATION" }.map(lat)
        let recorded = points.map(lat)
        #expect(recorded.allSatisfy { r in seen.contains(r) } && recorded == recorded.sorted())
        // Distance: within each segment, 20 m steps beyond the 2.5–10 m accuracies all count.
        var truth = 0.0
        for s in [0, 1] {
            let lats = points.filter { Int($0.double("segment") ?? -1) == s }.map(lat)
            truth += zip(lats, lats.dropFirst()).map { TestTracks.meridianArc($0, $1) }.reduce(0, +)
        }
        #expect(abs((track.double("distance") ?? 0) - truth) < 0.001 * Double(total), "TRACK \(track.double("distance") ?? 0) m, meridian \(truth) m")
        #expect(abs((track.double("averageSpeed") ?? 0) - 20) < 0.05 && track.double("maximumSpeed").map { abs($0 - 20) < 0.001 } == true)
    }

    /// `lodestone track` drives the service's recorder and exports GPX; its errors say what to do.
    @Test func trackCommandsAndExport() throws {
        let absent = try Lodestone.run(["track", "status", "--socket", scratch.file("none.sock")])
        #expect(absent.status == 3 && absent.error.contains("is 'lodestone serve' running"), "\(absent)")
        let (service, socket, latitudes) = try startDriving(30, speed: "30", loop: true)
        let empty = try Lodestone.run(["track", "export", "--socket", socket])
        #expect(empty.status == 1 && empty.error.contains("no recorded route"), "\(empty)")
        let idle = try Lodestone.run(["track", "pause", "--socket", socket])
        #expect(idle.status == 1 && idle.error.contains("cannot pause a recording that is idle"), "\(idle)")
        #expect(try Lodestone.run(["track", "start", "--socket", socket]).output.hasPrefix("recording:"))
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true,"heading":false,"location":true};"# + "\n")
        var seen = 0
        // The track loops: however slow the commands before, fixes are still coming.
        _ = c.read(until: { if $0.className == "LOCATION" { seen += 1 }; return seen > 15 }, timeout: 30)
        let stopped = try Lodestone.run(["track", "stop", "--socket", socket, "--json"])
        let track = try #require(ProtocolClient.object(stopped.output), "\(stopped)")
        let export = try Lodestone.run(["track", "export", "-o", scratch.file("t.gpx"), "--name", "test drive", "--socket", socket])
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        #expect(export.status == 0 && export.error.contains("points written"), "\(export)")
        let gpx = try GPXReader.read(String(contentsOfFile: scratch.file("t.gpx"), encoding: .utf8))
        let points = gpx.tracks.flatMap { $0.segments.flatMap { $0 } }
        #expect(gpx.tracks.first?.name == "test drive" && Double(points.count) == track.double("points"), "\(points.count) points, \(track)")
        #expect(points.allSatisfy { p in latitudes.contains { abs($0 - p.latitude) < 1e-9 } && p.elevation == 400 && p.speed == 20 })
        #expect(points.map { $0.time ?? 0 } == points.map { $0.time ?? 0 }.sorted() && points.count > 10)
    }

    /// `?STEER` without `?WATCH` is answered: a STEER from the position, and what it needs.
    @Test func steerWithoutWatchSaysWhatItNeeds() throws {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, rate: 0, seconds: 600)
        let (service, socket) = try start(["--source", "replay:\(log)", "--lat", "47", "--lon", "8"])
        let c = try ProtocolClient(path: socket)
        usleep(300_000)
        c.send(#"?STEER={"lat":47.01,"lon":8};"# + "\n")
        let steer = try #require(c.read(class: "STEER"))
        #expect(abs((steer.double("distance") ?? 0) - TestTracks.meridianArc(47, 47.01)) < 0.01 && steer["trueHeading"] is NSNull, "\(steer)")
        let event = try #require(c.read(until: { $0.string("event") == "steerUnavailable" }))
        #expect(event.string("reason") == "notWatching" && event.string("detail")?.contains("?WATCH") == true)
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    /// `?POLL` on idle sensors waits for the estimator to settle: the heading it gives is more
    /// accurate than the first one after a claim. A source too slow to settle in time answers
    /// with the latest heading and settled:false.
    @Test func pollWaitsForASettledHeading() throws {
        // The demo recording: a noisy simulated board, whose accuracy falls over the first 0.5 s.
        let log = SharedData.packageRoot.appendingPathComponent("tools/demo/simulated-board.lslog").path
        var (service, socket) = try start(["--source", "replay:\(log)", "--speed", "1", "--heading-filter", "0"])
        let watcher = try ProtocolClient(path: socket)
        watcher.send(#"?WATCH={"enable":true};"# + "\n")
        let firstAfterClaim = try #require(watcher.read(class: "HEADING")?.double("headingAccuracy"))
        watcher.close()
        usleep(300_000)
        let c = try ProtocolClient(path: socket)
        c.send("?POLL;\n")
        let poll = try #require(c.read(class: "POLL"))
        let heading = try #require(poll["heading"] as? [String: Any])
        #expect(poll["settled"] as? Bool == true)
        let accuracy = try #require(heading.double("headingAccuracy"))
        #expect(accuracy < firstAfterClaim * 0.9, "polled \(accuracy)° vs \(firstAfterClaim)° at the first sample after a claim")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)

        // At 0.15 × 50 Hz the fusion's start (0.2 s of samples) reports its first heading 1.3 s into
        // the poll's 2 s wait, and settling takes another 0.25 s of samples (1.7 s).
        (service, socket) = try start(["--source", "replay:\(log)", "--speed", "0.15", "--heading-filter", "0"])
        let slow = try ProtocolClient(path: socket)
        slow.send("?POLL;\n")
        let late = try #require(slow.read(class: "POLL", timeout: 6))
        #expect(late["settled"] as? Bool == false && (late["heading"] as? [String: Any])?.className == "HEADING", "\(late)")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        print("measured ?POLL: settled heading \(accuracy)°, first heading after a claim \(firstAfterClaim)°")
    }
}
