import Foundation
import LodestoneTestSupport
import Testing

/// `lodestone locate`, `place` and `regions --file`: the location commands that need no
/// service (`track` and `regions` against a running service are in LodestoneServiceTests).
@Suite struct LocationCommandTests {
    let dir = TemporaryDirectory()

    static func sentence(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^)) + "\r\n"
    }

    /// Fixes every second, 0.05′ (92.7 m) apart northward from 46°N 7°E (RMC and GGA),
    /// with a corrupted line after the second fix and a jump of 1° in fix 6.
    func log(fixes: Int) -> String {
        var text = ""
        for i in 0..<fixes {
            let minutes = 0.05 * Double(i) + (i == 6 ? 60 : 0)
            let lat = String(format: "%02d%010.7f", 46 + Int(minutes / 60), minutes.truncatingRemainder(dividingBy: 60))
            let t = String(format: "1200%02d.00", i)
            text += Self.sentence("GPRMC,\(t),A,\(lat),N,00700.0000000,E,180.1,0.0,011226,,,A")
            text += Self.sentence("GPGGA,\(t),\(lat),N,00700.0000000,E,1,08,0.8,500.0,M,49.0,M,,")
            if i == 1 { text += "$GPRMC,120001.50,A,4600.0,N,00700.0,E,0,0,011226,,,A*00\r\n" }
        }
        return dir.file("drive.nmea", text)
    }

    /// Each fix as a LOCATION once; the corrupted line is named on standard error and the
    /// implausible jump refused with its reason; the distance filter thins the rest.
    @Test func locateReplaysAnNMEALog() throws {
        let path = log(fixes: 12)
        let all = try CommandRunner.run(["locate", "--position-log", path, "--position-speed", "max"])
        #expect(all.status == 0, "\(all.stderr)")
        let locations = all.objects.filter { $0["class"] as? String == "LOCATION" }
        #expect(locations.count == 11, "12 fixes, one refused: \(all.stdout)")
        let events = all.objects.filter { $0["class"] as? String == "EVENT" }.map { "\($0["event"] ?? "") \($0["reason"] ?? "")" }
        #expect(events == ["locationAvailable fixReceived", "locationRejected implausibleJump", "sourceEnded endOfLog"], "\(events)")
        #expect(all.stderr.contains("line 5") && all.stderr.contains("checksum"), "\(all.stderr)")
        let first = try #require(locations.first)
        #expect(first["lat"] as? Double == 46 && first["altitude"] as? Double == 500 && first["ellipsoidalAltitude"] as? Double == 549)
        #expect(first["time"] as? String == "2026-12-01T12:00:00.000Z")

        // 92.7 m between fixes; a 250 m filter keeps every third (the refused fix 6 is skipped),
        // and a 3 m accuracy none.
        let thinned = try CommandRunner.run(["locate", "--position-log", path, "--position-speed", "max", "--distance-filter", "250"])
        #expect(thinned.objects.filter { $0["class"] as? String == "LOCATION" }.compactMap { $0["time"] as? String }.map { $0.dropFirst(17).prefix(2) }
                == ["00", "03", "07", "10"], "\(thinned.stdout)")
        let accurate = try CommandRunner.run(["locate", "--position-log", path, "--position-speed", "max", "--desired-accuracy", "3"])
        #expect(accurate.status == 0 && !accurate.stdout.contains("LOCATION"), "HDOP 0.8 × 5 m = 4 m > 3 m: \(accurate.stdout)")
    }

    /// A GPX track is replayed too; a fixed position gives its fix once a second; bad input
    /// and bad flags exit with the file or the flag named.
    @Test func locateSourcesAndItsErrors() throws {
        let gpx = dir.file("t.gpx", #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
                          + #"<trkpt lat="46.5" lon="6.6"><ele>372</ele><time>2026-06-01T12:00:00Z</time></trkpt>"#
                          + #"<trkpt lat="46.501" lon="6.6"><time>2026-06-01T12:00:10Z</time></trkpt></trkseg></trk></gpx>"#)
        let replay = try CommandRunner.run(["locate", "--position-log", gpx, "--position-speed", "max", "--place"])
        let fixes = replay.objects.filter { $0["class"] as? String == "LOCATION" }
        #expect(fixes.count == 2 && fixes[0]["altitude"] as? Double == 372, "\(replay.stdout) \(replay.stderr)")
        #expect((fixes[0]["place"] as? [String: Any])?["isoCountryCode"] as? String == "CH", "\(fixes.first ?? [:])")

        let fixed = try CommandRunner.run(["locate", "--lat", "46.5", "--lon", "6.6", "--count", "2"])
        let stamps = fixed.objects.compactMap { $0["class"] as? String == "LOCATION" ? $0["time"] as? String : nil }
        #expect(fixed.status == 0 && stamps.count == 2 && stamps[0] != stamps[1], "\(fixed.stdout)")

        let garbage = try CommandRunner.run(["locate", "--position-log", dir.file("x.txt", "hello\n")])
        #expect(garbage.status == 1 && garbage.stderr.contains("x.txt") && garbage.stderr.contains("neither GPX"), "\(garbage.stderr)")
        let missing = try CommandRunner.run(["locate", "--position-log", dir.path("none.gpx")])
        #expect(missing.status == 3 && missing.stderr.contains("none.gpx"), "\(missing.stderr)")
        let both = try CommandRunner.run(["locate", "--lat", "1", "--lon", "2", "--gpsd", "localhost"])
        #expect(both.status == 2 && both.stderr.contains("give one position source"), "\(both.stderr)")
        let negative = try CommandRunner.run(["locate", "--lat", "1", "--lon", "2", "--distance-filter", "-3"])
        #expect(negative.status == 2 && negative.stderr.contains("--distance-filter"), "\(negative.stderr)")
    }

    /// The nearest place to Zürich's main station, with the distance GeodSolve gives to the
    /// place's printed position.
    @Test func placeBothWays() throws {
        let near = try CommandRunner.run(["place", "--lat", "47.3779", "--lon", "8.5403", "--json"])
        #expect(near.status == 0, "\(near.stderr)")
        let o = try #require(near.objects.first)
        #expect(o["country"] as? String == "Switzerland" && (o["name"] as? String)?.hasPrefix("Zürich") == true, "\(o)")
        if let geodSolve = GeodSolveProcess.executable, let lat = o["lat"] as? Double, let lon = o["lon"] as? Double {
            let answer = try GeodSolveProcess.run(geodSolve, arguments: ["-i"], lines: ["47.3779 8.5403 \(lat) \(lon)"])[0]
            let reference = try #require(Double(answer.split(separator: " ")[2]))
            // The place's position is printed with five decimals (≤ 0.6 m).
            #expect(abs((o["distance"] as? Double ?? .nan) - reference) < 1.2, "\(o) vs GeodSolve \(reference)")
        }
        // The name search (PlaceSearchTests) takes ~6 s of CPU in a debug build: here only its usage.
        let wrong = try CommandRunner.run(["place", "bern", "--lat", "1", "--lon", "2"])
        #expect(wrong.status == 2 && wrong.stderr.contains("not both"))
        let country = try CommandRunner.run(["place", "bern", "--country", "CHE"])
        #expect(country.status == 2 && country.stderr.contains("two-letter"))
    }

    /// A region file made by hand before the service starts: written atomically, read back by
    /// `locate --regions`, and a bad one refused with the field named and left as it was.
    @Test func regionsInAFile() throws {
        let file = dir.path("regions.json")
        let add = try CommandRunner.run(["regions", "add", "lake", "--lat", "46.5", "--lon", "6.6", "--radius", "200", "--dwell", "60", "--file", file])
        #expect(add.status == 0 && add.stdout.contains("lake: 46.500000, 6.600000, radius 200.0 m, dwell 60 s; unknown"), "\(add.stdout) \(add.stderr)")
        _ = try CommandRunner.run(["regions", "add", "hill", "--lat", "46.6", "--lon", "6.7", "--radius", "50", "--no-exit", "--file", file])
        let list = try CommandRunner.run(["regions", "list", "--file", file, "--json"])
        let regions = try #require(list.objects.first?["regions"] as? [[String: Any]])
        #expect(regions.map { $0["identifier"] as? String ?? "" } == ["lake", "hill"] && regions[1]["notifyOnExit"] as? Bool == false)
        #expect(try CommandRunner.run(["regions", "remove", "hill", "--file", file]).status == 0)
        let unknown = try CommandRunner.run(["regions", "remove", "hill", "--file", file])
        #expect(unknown.status == 1 && unknown.stderr.contains("no region with identifier 'hill'"), "\(unknown.stderr)")
        #expect(dir.contents() == ["regions.json"], "no temporary file left: \(dir.contents())")

        let gpx = dir.file("t.gpx", #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
                          + #"<trkpt lat="46.49" lon="6.6"><time>2026-06-01T12:00:00Z</time></trkpt>"#
                          + #"<trkpt lat="46.5" lon="6.6"><time>2026-06-01T12:01:00Z</time></trkpt></trkseg></trk></gpx>"#)
        let crossing = try CommandRunner.run(["locate", "--position-log", gpx, "--position-speed", "max", "--regions", file])
        #expect(crossing.objects.filter { $0["class"] as? String == "REGION" }.map { $0["event"] as? String ?? "" } == ["entered"], "\(crossing.stdout)")

        let bad = #"{"formatVersion":1,"regions":[{"identifier":"x","latitude":46,"longitude":200,"radius":5}]}"#
        let badFile = dir.file("bad.json", bad)
        let refused = try CommandRunner.run(["regions", "add", "y", "--lat", "1", "--lon", "1", "--radius", "5", "--file", badFile])
        #expect(refused.status == 1 && refused.stderr.contains("regions[0].longitude"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: badFile, encoding: .utf8) == bad)
    }
}
