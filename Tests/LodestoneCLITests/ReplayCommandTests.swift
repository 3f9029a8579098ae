import Foundation
import LodestoneTestSupport
import Testing

private let header = "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z"
/// Flat and still, field pointing north and down: heading 0.
private let north = "0,0,9.81,0,20,-40"

@Suite struct ReplayCommandTests {
    let scratch = TemporaryDirectory()

    @Test func printsOneJSONObjectPerDeliveredHeadingWithCLHeadingKeys() throws {
        let path = scratch.file("a.csv", "\(header)\n0,\(north)\n0.5,\(north)\n")
        let r = try CommandRunner.run(["replay", path])
        #expect(r.status == 0)
        #expect(r.headings.count == 1) // the second sample did not move: held back by the default 1° filter
        let h = try #require(r.headings.first)
        #expect(Set(h.keys) == ["timestamp", "magneticHeading", "trueHeading", "headingAccuracy", "x", "y", "z", "attitude"])
        #expect(h["trueHeading"] is NSNull)
        #expect((h["magneticHeading"] as? Double).map { abs($0) < 1e-3 || abs($0 - 360) < 1e-3 } == true)
        #expect((h["attitude"] as? [Double])?.count == 4)
        #expect(h["y"] as? Double == 20)
    }

    @Test func headingFilterZeroDeliversEverySampleAndOptionsTakeEqualsForm() throws {
        let path = scratch.file("b.csv", "\(header)\n0,\(north)\n0.5,\(north)\n1,\(north)\n")
        #expect(try CommandRunner.run(["replay", path, "--heading-filter=0"]).headings.count == 3)
        #expect(try CommandRunner.run(["replay", "--heading-filter", "0", path]).headings.count == 3)
    }

    /// Replays the one-sample log at `path` with each forward axis and checks its
    /// heading, and that the heading is valid.
    func expectHeadings(_ path: String, _ expected: [String: Double]) throws {
        for (axis, heading) in expected {
            let h = try #require(try CommandRunner.run(["replay", path, "--forward", axis]).headings.first)
            let got = try #require(h["magneticHeading"] as? Double)
            #expect(abs(got - heading) < 1e-3 || abs(got - heading - 360) < 1e-3, "\(axis): \(got)")
            #expect((h["headingAccuracy"] as? Double).map { $0 >= 0 } == true, "\(axis)")
        }
    }

    @Test func forwardAxisChangesTheReportedHeading() throws {
        let path = scratch.file("c.csv", "\(header)\n0,\(north)\n")
        try expectHeadings(path, ["+y": 0.0, "+x": 90.0, "-y": 180.0, "-x": 270.0])
    }

    /// A board standing on its bottom edge (+y up) with its back (−z) facing north: the
    /// field's north part lies along −z and its downward part along −y. The back's
    /// heading is then 0°, the face's 180°, and the top edge, pointing at the sky, has none.
    @Test func theBackOfAnUprightBoardHasAHeading() throws {
        let path = scratch.file("upright.csv", "\(header)\n0,0,9.81,0,0,-40,-20\n")
        try expectHeadings(path, ["-z": 0.0, "+z": 180.0, "+x": 90.0, "-x": 270.0])
        let top = try #require(try CommandRunner.run(["replay", path, "--forward", "+y"]).headings.first)
        #expect(top["headingAccuracy"] as? Double == -1)
    }

    /// A log at 50 Hz: the board flat and still facing north for `flat` seconds, standing
    /// upright (as in the test above) for `upright` seconds, then flat for `flatAfter`.
    func uprightLog(_ name: String, flat: Double, upright: Double, flatAfter: Double) -> String {
        let uprightRow = "0,9.81,0,0,-40,-20"
        let n = Int(((flat + upright + flatAfter) * 50).rounded())
        let rows = (0..<n).map { i in
            let t = Double(i) / 50
            return "\(t),\(t >= flat && t < flat + upright ? uprightRow : north)"
        }
        return scratch.file(name, ([header] + rows).joined(separator: "\n") + "\n")
    }

    func headingUnavailable(_ r: CommandRunner.Result) -> [[String: Any]] {
        r.events.filter { $0["event"] as? String == "headingUnavailable" }
    }

    /// Left upright, the default forward axis (+y, at the sky) gives only invalid
    /// headings: one event says why and names the back, -z, which has none.
    @Test func anUprightBoardIsToldToUseItsBack() throws {
        let path = uprightLog("left-upright.csv", flat: 0, upright: 5, flatAfter: 0)
        let r = try CommandRunner.run(["replay", path])
        #expect(r.status == 0)
        let events = headingUnavailable(r)
        #expect(events.count == 1)
        let e = try #require(events.first)
        #expect(e["state"] as? String == "start" && e["reason"] as? String == "forwardAxisVertical")
        let detail = try #require(e["detail"] as? String)
        #expect(detail.contains("+y") && detail.contains("--forward -z"), "\(detail)")
        #expect(r.headings.allSatisfy { $0["headingAccuracy"] as? Double == -1 })
        let back = try CommandRunner.run(["replay", path, "--forward", "-z"])
        #expect(back.status == 0 && !back.headings.isEmpty)
        #expect(headingUnavailable(back).isEmpty)
    }

    /// Upright for a second (a board turned over in the hand) is not reported; upright
    /// for three is, and ends once the board lies flat again.
    @Test func aBriefUprightMomentRaisesNothing() throws {
        let brief = try CommandRunner.run(["replay", uprightLog("brief.csv", flat: 2, upright: 1, flatAfter: 3)])
        #expect(brief.status == 0)
        #expect(headingUnavailable(brief).isEmpty)
        let held = try CommandRunner.run(["replay", uprightLog("held.csv", flat: 2, upright: 3, flatAfter: 3)])
        #expect(headingUnavailable(held).map { $0["state"] as? String } == ["start", "end"])
    }

    @Test func badLinesStopWithFileLineAndExitCodeOne() throws {
        let path = scratch.file("bad.csv", "\(header)\n0,\(north)\n1,0,0,9.81,0,20\n2,\(north)\n")
        let r = try CommandRunner.run(["replay", path, "--heading-filter", "0"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(path):3: expected 7 fields as in the header, found 6"))
        #expect(r.headings.count == 1) // only the good line before it
    }

    @Test func skipBadLinesReportsTheCount() throws {
        let path = scratch.file("skip.csv", "\(header)\n0,\(north)\n1,0,0,9.81,0,x,-40\n2,\(north)\n0.5,\(north)\n")
        let r = try CommandRunner.run(["replay", path, "--skip-bad-lines", "--heading-filter", "0"])
        #expect(r.status == 0)
        #expect(r.headings.count == 2)
        #expect(r.stderr.contains("skipped 2 bad line(s)"))
        #expect(r.stderr.contains("\(path):3:"))
    }

    @Test func usageErrorsExitTwoAndNegativeNumbersAreValues() throws {
        let path = scratch.file("d.csv", "\(header)\n0,\(north)\n")
        let negative = try CommandRunner.run(["replay", path, "--heading-filter", "-1"])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--heading-filter must be ≥ 0"))
        let typo = try CommandRunner.run(["replay", path, "--heading-filtr", "2"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean --heading-filter?"))
        #expect(try CommandRunner.run(["replay", path, "--forward", "up"]).status == 2)
        #expect(try CommandRunner.run(["frobnicate"]).status == 2)
        #expect(try CommandRunner.run(["replay", scratch.path("missing.csv")]).status == 3)
    }

    @Test func readsStandardInput() throws {
        let r = try CommandRunner.run(["replay", "-"], stdin: "\(header)\n0,\(north)\n")
        #expect(r.status == 0)
        #expect(r.headings.count == 1)
    }

    @Test func helpAndVersion() throws {
        let help = try CommandRunner.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("replay") && help.stdout.contains("Exit codes"))
        let replayHelp = try CommandRunner.run(["help", "replay"])
        #expect(replayHelp.stdout.contains("--heading-filter DEG"))
        #expect(try CommandRunner.run(["replay", "--help"]).stdout == replayHelp.stdout)
        #expect(try CommandRunner.run(["--version"]).stdout.hasPrefix("lodestone "))
    }

    @Test func simulatedHoldsReplayToTheTruth() throws {
        // End to end: simulate with truth columns, replay, compare at the end of each hold.
        let log = scratch.path("holds.lslog")
        let sim = try CommandRunner.run(["simulate", "-o", log, "--scenario", "holds", "--tilt", "30", "--truth", "--rate", "50"])
        #expect(sim.status == 0, "\(sim.stderr)")
        let r = try CommandRunner.run(["replay", log, "--heading-filter", "0"])
        #expect(r.status == 0)
        // Holds are 5 s long with 1 s turns between them: hold k ends at 6k + 5 s.
        let truths = [7.0, 52, 97, 142, 187, 232, 277, 322]
        for (k, truth) in truths.enumerated() {
            let end = Double(6 * k + 5)
            let h = try #require(r.headings.first { abs(($0["timestamp"] as? Double ?? -1) - (end - 0.02)) < 1e-6 })
            let heading = try #require(h["magneticHeading"] as? Double)
            let error = abs((heading - truth + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(error < 1, "hold \(k): \(heading) vs \(truth)")
        }
    }

    @Test func bundledDemoIsLabelled() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let r = try CommandRunner.run(["replay"], currentDirectory: root)
        #expect(r.status == 0)
        #expect(r.stderr.contains("SIMULATED board"))
        #expect(r.headings.count > 50)
    }
}

/// `replay` of a car whose steel adds a hard iron the bench profile does not
/// hold: the pipeline swings it out as the car turns and says so.
@Suite struct ReplaySwungHardIronTests {
    let scratch = TemporaryDirectory()

    /// The profile a bench calibration in the simulator's field (50 µT, 65°) gives.
    func benchProfile() -> String {
        scratch.file("bench.json", """
            {"formatVersion": 1, "sensor": "magnetometer", "created": "2026-12-01T00:00:00Z", "device": {},
             "parameters": {"unit": "uT", "offset": [0, 0, 0], "matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
             "quality": {"grade": "good", "model": "full", "fitErrorPercent": 1.0, "residualRMS": 0.5,
                         "fittedMagnitude": 50.0, "dip": 65.0, "coveragePercent": 99, "sampleCount": 30000,
                         "outlierCount": 0}}
            """)
    }

    func swung(ironOf iron: String) throws -> [[String: Any]] {
        let log = scratch.path("drive-\(iron).lslog")
        try CommandRunner.run(["simulate", "-o", log, "--scenario", "drive", "--duration", "240", "--gyro",
                               "--hard-iron", iron, "--seed", "3"]).expectSuccess()
        let r = try CommandRunner.run(["replay", log, "--calibration", benchProfile(), "--heading-filter", "5"])
        #expect(r.status == 0)
        return r.events.filter { $0["reason"] as? String == "hardIronSwing" }
    }

    @Test func aCarsIronIsSwungOutAndReported() throws {
        let events = try swung(ironOf: "8,-5,6")
        let first = try #require(events.first, "no hardIronSwing event")
        #expect(first["event"] as? String == "calibrationUpdated")
        #expect((first["detail"] as? String)?.contains("µT") == true)
        #expect(try swung(ironOf: "0,0,0").isEmpty)
    }
}
