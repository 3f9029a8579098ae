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
        #expect(Set(o.keys) == ["bearing", "finalBearing", "distance", "arrived"])
        #expect(o["arrived"] as? Bool == false)
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

    /// Near the antipode the bearing is a hair under 360°: it is printed as 0, never as
    /// 360 (issue 13). GeodSolve -i -p 10 gives azi1 −0.000000380070415° to (4e-9, −179.999999996)
    /// (359.99999962: "360.000000" with six decimals) and −0.00000950° to (1e-7, −179.9999999)
    /// ("360.000" with three).
    @Test func bearingsNearTheAntipodeNeverRead360() throws {
        let o = try json(["--from", "0,0", "--to", "0.000000004,-179.999999996", "--heading", "180.0000001"])
        #expect(o["bearing"] as? Double == 0)
        // bearing − heading = 179.99999952: printed in [−180, 180), so −180.
        #expect(o["delta"] as? Double == -180)
        let r = try CommandRunner.run(["bearing", "--from", "0,0", "--to", "0.0000001,-179.9999999"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("bearing 0.000° (true)"), "\(r.stdout)")
        for run in [r.stdout, try CommandRunner.run(["bearing", "--from", "0,0", "--to", "0.000000004,-179.999999996", "--json"]).stdout] {
            #expect(!run.contains("360.0"), "\(run)")
        }
    }

    @Test func atTheTargetThereIsNoTurn() throws {
        let o = try json(["--from", "52.5,13.4", "--to", "52.50001,13.4", "--heading", "90"])
        #expect(o["arrived"] as? Bool == true)
        #expect(o["delta"] is NSNull && o["turn"] is NSNull)
        #expect((o["distance"] as? Double ?? .nan) < 10)
    }

    /// --arrival-radius has its effect without --heading too; --tolerance needs one.
    @Test func arrivalWithoutAHeading() throws {
        let far = try json(["--from", "52.5,13.4", "--to", "52.5005,13.4"])
        #expect(far["arrived"] as? Bool == false)
        let near = try json(["--from", "52.5,13.4", "--to", "52.5005,13.4", "--arrival-radius", "100"])
        #expect(near["arrived"] as? Bool == true)
        let text = try CommandRunner.run(["bearing", "--from", "52.5,13.4", "--to", "52.5005,13.4", "--arrival-radius", "100"])
        #expect(text.stdout.hasSuffix("; arrived (within 100.0 m)\n"), "\(text.stdout)")
        let refused = try CommandRunner.run(["bearing", "--from", "52.5,13.4", "--to", "48.85,2.35", "--tolerance", "20"])
        #expect(refused.status == 2 && refused.stderr.contains("--tolerance shapes the turn advice, which needs --heading"))
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
                                (["--from", "1,2", "--to", "3,4", "--heading", "0", "--tolerance", "90"], "--tolerance")] {
            let r = try CommandRunner.run(["bearing"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}

/// The daemon's memory budget (16 MB) leaves no room for Foundation: full Foundation
/// costs ~8 MB of libraries mapped and touched at start, FoundationEssentials ~2 MB.
/// `lodestone serve` runs `lodestone-serve`, which must link neither (the package's JSON
/// is its own, LodestoneJSON).
@Suite struct ExecutableLinkageTests {
    @Test func theDaemonDoesNotLinkFoundation() throws {
        let lean = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("lodestone-serve").path
        try #require(FileManager.default.isExecutableFile(atPath: lean), "\(lean) is not built")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        p.arguments = [lean]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text.contains("libswiftCore"), "ldd output: \(text)")
        for library in ["libFoundation.so", "libFoundationInternationalization", "libFoundationEssentials"] {
            #expect(!text.contains(library),
                    "lodestone-serve links \(library); import no Foundation module in the modules it uses (a clean build of them drops stale autolink entries):\n\(text)")
        }
    }

    @Test func serveReportsTheCLIsRelease() throws {
        let version = try CommandRunner.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let help = try CommandRunner.run(["help", "serve"])
        #expect(help.status == 0 && help.stdout.contains("--gpsd HOST:PORT"))
        // The daemon's VERSION object and the CLI's --version both say LodestoneRelease.version.
        let lean = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("lodestone-serve").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ls-v-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: lean)
        p.arguments = ["--source", "simulated", "--socket", dir + "/s.sock"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        var line = ""
        for _ in 0..<200 where line.isEmpty {
            usleep(20_000)
            line = firstLine(socket: dir + "/s.sock") ?? ""
        }
        #expect(line.contains("\"release\":\"\(version.replacingOccurrences(of: "lodestone ", with: ""))\""), "VERSION \(line) vs \(version)")
    }

    func firstLine(socket path: String) -> String? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard rc == 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 512) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// A target a hair west of due north: the bearing is 359.999994°, printed as 0.000, never 360.000.
    @Test func aBearingJustWestOfNorthNeverPrintsAs360() throws {
        let r = try CommandRunner.run(["bearing", "--from", "0,0", "--to", "10,-0.000001"])
        #expect(r.stdout.hasPrefix("bearing 0.000° (true)"), "\(r.stdout)")
    }
}
