import Foundation
import LodestoneTestSupport
import Testing

@Suite struct FieldCommandTests {
    let scratch = TemporaryDirectory()

    @Test func batchReproducesNOAATestValues() throws {
        // Rows 1 and 12 of NOAA's WMM2025 test values (WMM2025_TEST_VALUES.txt), as facts.
        let input = "# year,alt_km,lat,lon\nyear,alt_km,lat,lon\n2025.0,0,80,0\n2027.5,100,-80,240\n"
        let r = try CommandRunner.run(["field", "--batch"], stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines == [
            "year,alt_km,lat,lon,X,Y,Z,H,F,I,D,GV,Xdot,Ydot,Zdot,Hdot,Fdot,Idot,Ddot",
            "2025.0,0.0,80.0,0.0,6521.6,145.9,54791.5,6523.2,55178.5,83.21,1.28,1.28,-8.3,59.5,31.1,-7.0,30.1,0.01,0.52",
            "2027.5,100.0,-80.0,240.0,5984.0,14760.1,-49317.7,15927.0,51825.7,-72.10,67.93,-52.07,30.6,-8.0,89.2,4.0,-83.7,0.03,-0.11",
        ])
        // Row 2 (equator): GV is undefined.
        let equator = try CommandRunner.run(["field", "--batch"], stdin: "2025.0,0,0,120\n")
        #expect(equator.lines.last?.split(separator: ",")[11] == "nan")
    }

    /// Every option of `field --batch` has an effect, or is refused.
    @Test func batchOptionsHaveAnEffectOrAreRefused() throws {
        let line = "2031.5,0,80,0\n"
        #expect(try CommandRunner.run(["field", "--batch"], stdin: line).status == 1, "outside the validity")
        let csv = try CommandRunner.run(["field", "--batch", "--allow-extrapolation"], stdin: line)
        #expect(csv.status == 0 && csv.lines.count == 2)
        let json = try CommandRunner.run(["field", "--batch", "--allow-extrapolation", "--json"], stdin: line + line)
        #expect(json.objects.count == 2 && json.objects.first?["extrapolated"] as? Bool == true, "\(json.stdout)")
        let hr = try CommandRunner.run(["field", "--batch", "--model", "wmmhr", "--json"], stdin: "2026.5,0,80,0\n")
        #expect(hr.objects.first?["model"] as? String == "WMMHR2025", "\(hr.stdout)")
        for flags in [["--lat", "1"], ["--lon", "1"], ["--alt-km", "1"], ["--alt-m", "1"], ["--date", "2026-01-01"], ["--year", "2026"]] {
            let r = try CommandRunner.run(["field", "--batch"] + flags, stdin: line)
            #expect(r.status == 2 && r.stderr.contains("does not apply to --batch"), "\(flags): \(r.stderr)")
        }
    }

    @Test func batchRejectsBadLinesWithTheLineNumber() throws {
        let r = try CommandRunner.run(["field", "--batch"], stdin: "2025.0,0,80,0\n2025.0,zero,80\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("<stdin>:2: expected year,alt_km,lat,lon"))
    }

    @Test func humanAndJSONOutput() throws {
        let text = try CommandRunner.run(["field", "--lat", "-80", "--lon", "240", "--alt-km", "0", "--year", "2025.0"])
        #expect(text.status == 0)
        // NOAA prints D = 68.78° for this point; the text shows more digits.
        let line = try #require(text.lines.first { $0.contains("Declination (D)") })
        let value = try #require(line.split(separator: " ").compactMap { Double($0.replacingOccurrences(of: "°", with: "")) }.first)
        #expect(abs(value - 68.78) <= 0.005)
        #expect(line.contains("° E"))
        let json = try CommandRunner.run(["field", "--lat=80", "--lon=0", "--year=2025.0", "--json"])
        let object = try #require(json.objects.first)
        #expect(abs((object["F"] as? Double ?? 0) - 55178.5) < 0.05)
        #expect(object["zone"] as? String == "normal")
    }

    @Test func outOfEpochIsAUsageErrorUnlessExtrapolationIsAllowed() throws {
        let refused = try CommandRunner.run(["field", "--lat", "10", "--lon", "10", "--date", "2031-01-01"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--allow-extrapolation"))
        let allowed = try CommandRunner.run(["field", "--lat", "10", "--lon", "10", "--date", "2031-01-01", "--allow-extrapolation"])
        #expect(allowed.status == 0)
        #expect(allowed.stdout.contains("EXTRAPOLATED"))
    }

    @Test func blackoutZoneIsFlagged() throws {
        let r = try CommandRunner.run(["field", "--lat", "86.5", "--lon", "-160", "--year", "2026.5"])
        #expect(r.stdout.contains("BLACKOUT"))
    }
}

@Suite struct TrueHeadingReplayTests {
    let scratch = TemporaryDirectory()
    let header = "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z"

    @Test func trueHeadingIsMagneticPlusDeclination() throws {
        let path = scratch.file("north.csv", "\(header)\n0,0,0,9.81,0,20,-40\n")
        let r = try CommandRunner.run(["replay", path, "--lat", "-80", "--lon", "240", "--year", "2025.0"])
        #expect(r.status == 0, "\(r.stderr)")
        let h = try #require(r.headings.first)
        let d = try #require(h["declination"] as? Double)
        #expect(abs(d - 68.78) < 0.005) // NOAA's test value, printed to 0.01°
        let magnetic = try #require(h["magneticHeading"] as? Double)
        let truth = try #require(h["trueHeading"] as? Double)
        #expect(abs(((magnetic + d).truncatingRemainder(dividingBy: 360)) - truth) < 0.002)
    }

    @Test func withoutPositionTrueHeadingIsNull() throws {
        let path = scratch.file("n.csv", "\(header)\n0,0,0,9.81,0,20,-40\n")
        let h = try #require(try CommandRunner.run(["replay", path]).headings.first)
        #expect(h["trueHeading"] is NSNull)
        #expect(h["declination"] == nil)
    }

    @Test func blackoutGivesAnEventAndNullTrueHeading() throws {
        let path = scratch.file("pole.csv", "\(header)\n0,0,0,9.81,0,20,-40\n")
        let r = try CommandRunner.run(["replay", path, "--lat", "86.5", "--lon", "-160", "--year", "2026.5"])
        let event = try #require(r.events.first { $0["event"] as? String == "trueHeadingUnavailable" })
        #expect(event["event"] as? String == "trueHeadingUnavailable")
        #expect(event["reason"] as? String == "blackoutZone")
        #expect((event["detail"] as? String)?.contains("2000 nT") == true)
        let heading = try #require(r.headings.last)
        #expect(heading["trueHeading"] is NSNull)
        #expect(heading["declination"] is NSNull, "null in the blackout zone, as serve's HEADING has it")
    }

    @Test func dateComesFromTheLogStart() throws {
        // A native log starting 2027-07-02: the declination must be the model's for that date.
        let path = scratch.file("dated.lslog", """
            # lodestone-log 1
            # {"start":"2027-07-02T12:00:00Z","units":{"time":"s","acceleration":"m/s^2","magneticField":"uT","angularRate":"rad/s"}}
            \(header)
            0,0,0,9.81,0,20,-40

            """)
        let fromLog = try #require(try CommandRunner.run(["replay", path, "--lat", "52.5", "--lon", "13.3"]).headings.first)
        let fromFlag = try #require(try CommandRunner.run(["replay", path, "--lat", "52.5", "--lon", "13.3", "--date", "2027-07-02"]).headings.first)
        let other = try #require(try CommandRunner.run(["replay", path, "--lat", "52.5", "--lon", "13.3", "--date", "2025-01-01"]).headings.first)
        let d1 = try #require(fromLog["declination"] as? Double), d2 = try #require(fromFlag["declination"] as? Double)
        #expect(abs(d1 - d2) < 0.001) // half a day apart
        #expect(abs(d1 - (other["declination"] as? Double ?? 0)) > 0.2) // ~0.13°/yr × 2.5 yr
        #expect(fromLog["time"] as? String == "2027-07-02T12:00:00.000Z")
    }
}
