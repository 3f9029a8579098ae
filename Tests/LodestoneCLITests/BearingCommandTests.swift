import Foundation
import Testing

@Suite struct BearingCommandTests {
    /// Berlin (52.5, 13.4) → Paris (48.85, 2.35). Reference: GeographicLib's GeodSolve 2.1
    /// (`echo "52.5 13.4 48.85 2.35" | GeodSolve -i -p 9`): azi1 −113.108598798546°,
    /// s12 879035.387812601 m.
    static let referenceBearing = 360 - 113.108598798546
    static let referenceDistance = 879_035.387812601

    func json(_ arguments: [String]) throws -> [String: Any] {
        let r = try CommandRunner.run(["bearing"] + arguments + ["--json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(r.objects.first)
    }

    @Test func bearingAndDistanceMatchGeographicLib() throws {
        let o = try json(["--from", "52.5,13.4", "--to", "48.85,2.35"])
        #expect(Set(o.keys) == ["bearing", "finalBearing", "distance"])
        #expect(abs((o["bearing"] as? Double ?? .nan) - Self.referenceBearing) < 1e-6)
        #expect(abs((o["distance"] as? Double ?? .nan) - Self.referenceDistance) < 1e-3)
    }

    @Test(arguments: [(250.0, "ahead"), (100.0, "sharpRight"), (0.0, "sharpLeft"), (60.0, "turnAround"), (-130.0, "slightRight"), (200, "slightRight")])
    func headingGivesDeltaAndTurn(heading: Double, turn: String) throws {
        let o = try json(["--from", "52.5,13.4", "--to", "48.85,2.35", "--heading", String(heading)])
        var delta = (Self.referenceBearing - heading).truncatingRemainder(dividingBy: 360)
        if delta >= 180 { delta -= 360 }
        if delta < -180 { delta += 360 }
        #expect(abs((o["delta"] as? Double ?? .nan) - delta) < 1e-6, "\(o)")
        #expect(o["turn"] as? String == turn, "delta \(delta)°")
        #expect(o["arrived"] as? Bool == false)
    }

    @Test func atTheTargetThereIsNoTurn() throws {
        let o = try json(["--from", "52.5,13.4", "--to", "52.50001,13.4", "--heading", "90"])
        #expect(o["arrived"] as? Bool == true)
        #expect(o["delta"] is NSNull && o["turn"] is NSNull)
        #expect((o["distance"] as? Double ?? .nan) < 10)
    }

    @Test func textOutput() throws {
        let r = try CommandRunner.run(["bearing", "--from", "52.5,13.4", "--to", "48.85,2.35", "--heading", "250"])
        #expect(r.status == 0)
        #expect(r.stdout == "bearing 246.891° (true), distance 879.035 km; turn ahead (delta -3.1°)\n", "\(r.stdout)")
    }

    @Test func badInputIsAUsageError() throws {
        for (args, message) in [(["--from", "95,0", "--to", "0,0"], "--from: latitude 95.0 is outside [-90, 90] degrees"),
                                (["--from", "1", "--to", "0,0"], "--from needs LAT,LON in decimal degrees"),
                                (["--from", "1,2"], "--to LAT,LON is required"),
                                (["--from", "1,2", "--to", "3,4", "--tolerance", "90"], "--tolerance")] {
            let r = try CommandRunner.run(["bearing"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}

/// The daemon's memory budget (16 MB) leaves no room for full Foundation (~8 MB of
/// libraries mapped and touched at start): the executable must not link it.
@Suite struct ExecutableLinkageTests {
    @Test func lodestoneDoesNotLinkFullFoundation() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        p.arguments = [CommandRunner.executable.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text.contains("libswiftCore"), "ldd output: \(text)")
        #expect(!text.contains("libFoundation.so") && !text.contains("libFoundationInternationalization"),
                "lodestone links full Foundation; import FoundationEssentials (or nothing) instead:\n\(text)")
    }
}
