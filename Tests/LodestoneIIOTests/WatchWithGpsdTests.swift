import Foundation
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneLogs
import LodestoneSimulatedBoard
import LodestoneTestSupport
import Testing

/// `watch --gpsd` on a simulated board: a real gpsd in the board's namespace, fed an NMEA
/// track over TCP (`NMEAFeeder`), gives the live loop its position: true heading once there
/// is a fix, and null again when the fix grows old.
@Suite(.serialized, .enabled(if: Lodestone.namespaceProblem == nil || SharedData.isInCI, "skipped: \(Lodestone.namespaceProblem ?? "")"))
struct WatchWithGpsdTests {
    static let toolsProblem: String? = {
        let missing = ["gpsd", "python3"].filter { tool in
            ["/usr/bin", "/usr/sbin", "/bin", "/sbin"].allSatisfy { !FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
        return missing.isEmpty ? nil : "missing \(missing.joined(separator: ", ")) (apt-get install gpsd python3)"
    }()

    /// 52°30.72′ N 13°19.62′ E, 2.5 kn on course 45°, 74 m above the ellipsoid.
    static func track(fixes: Int) -> String {
        func nmea(_ body: String) -> String {
            "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^)) + "\r\n"
        }
        return (0..<fixes).map { i in
            let t = String(format: "12%02d%02d.00", i / 60, i % 60)
            return nmea("GPRMC,\(t),A,5230.7200,N,01319.6200,E,2.5,45.0,301126,,,A")
                + nmea("GPGGA,\(t),5230.7200,N,01319.6200,E,1,08,0.9,34.0,M,40.0,M,,")
        }.joined()
    }

    /// Runs `lodestone arguments…` on a simulated board with gpsd on 127.0.0.1:29470, in the
    /// board's namespace with loopback up. gpsd starts 1 s after the command (so the command
    /// first finds it unreachable) and reads the track for 8 s, a line every 0.1 s: past the
    /// command's fourth reconnection (its back-off doubles from 0.5 s). Then the feed stops,
    /// so that the fix grows old, and 5 s later (past `record`'s 3 s for speed) the command
    /// gets SIGTERM (it exits 0). Its own limits (`--count`, `--duration`) are only a safety net.
    func runWithGpsd(_ arguments: [String], scratch: TemporaryDirectory) async throws -> CommandOutput {
        let dir = scratch.directory
        scratch.file("track.nmea", Self.track(fixes: 30))
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Quaternion(axis: .unitZ, angle: 37 * Angle.radiansPerDegree))
        defer { board.remove() }
        board.start()
        let command = ([Lodestone.executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = """
            set -u
            ip link set lo up
            cd '\(dir)'
            (
              \(NMEAFeeder.start(log: "track.nmea", lineInterval: 0.1, seconds: 8))
              sleep 1
              \(NMEAFeeder.gpsd(port: 29470))
              while [ ! -e feeder-done ]; do sleep 0.1; done
              sleep 5
              kill -TERM $$
            ) > helper.log 2>&1 &
            exec \(command)
            """
        let out = try await Lodestone.run(on: board, program: ["bash", "-c", script])
        #expect(out.status == 0, "\(out.stderr.suffix(600)) \(String(decoding: FileManager.default.contents(atPath: dir + "/gpsd.log") ?? Data(), as: UTF8.self))")
        return out
    }

    func requireTools() throws -> Bool {
        try #require(Lodestone.namespaceProblem == nil, "namespace tests cannot run: \(Lodestone.namespaceProblem ?? "")")
        try #require(Self.toolsProblem == nil || !SharedData.isInCI, "\(Self.toolsProblem ?? "")")
        return Self.toolsProblem == nil
    }

    @Test func trueHeadingFollowsGpsdsFixes() async throws {
        guard try requireTools() else { return }
        let out = try await runWithGpsd(["watch", "--gpsd", "127.0.0.1:29470", "--max-fix-age", "1.5", "--year", "2026.9", "--mode", "polled",
                                         "--rate", "50", "--heading-filter", "0", "--count", "6000"], scratch: TemporaryDirectory())
        let trueNorth = out.events.filter { ($0["event"] as? String)?.hasPrefix("trueHeading") == true }
            .map { "\($0["event"] as? String ?? "") \($0["reason"] as? String ?? "")" }
        #expect(trueNorth.first == "trueHeadingUnavailable gpsdUnreachable", "\(trueNorth)")
        #expect(trueNorth.contains("trueHeadingAvailable positionKnown"), "\(trueNorth)")
        #expect(trueNorth.last == "trueHeadingUnavailable fixTooOld", "\(trueNorth)")
        let declination = try GeomagneticModel.wmm2025.elements(latitude: 52.512, longitude: 13.327, height: 0.074, decimalYear: 2026.9).declination
        let located = out.headings.filter { $0["trueHeading"] is Double }
        #expect(!located.isEmpty)
        for h in located {
            #expect(abs(((h["declination"] as? Double) ?? .nan) - declination) < 0.001, "\(h)")
            let magnetic = h["magneticHeading"] as? Double ?? .nan, trueHeading = h["trueHeading"] as? Double ?? .nan
            #expect(abs(Angle.difference(from: magnetic + declination, to: trueHeading)) < 0.002)
        }
        #expect(out.headings.first?["declination"] is NSNull && out.headings.last?["declination"] is NSNull,
                "null before the first fix and after it grew old")
        print("measured watch --gpsd: \(located.count) of \(out.headings.count) headings with true heading; events \(trueNorth)")
    }

    /// `record --gpsd` writes each sample's ground speed and track from the fresh fix (2.5 kn
    /// on course 45°), empty before the first fix and once it grew old; replay reads them back.
    @Test func recordWritesSpeedAndTrack() async throws {
        guard try requireTools() else { return }
        let scratch = TemporaryDirectory()
        let log = scratch.directory + "/drive.lslog"
        _ = try await runWithGpsd(["record", "-o", log, "--duration", "120", "--gpsd", "127.0.0.1:29470", "--mode", "polled", "--rate", "50"],
                                  scratch: scratch)
        let reader = try LogReader(path: log)
        #expect(reader.columns.contains("speed") && reader.columns.contains("track"), "\(reader.columns)")
        var samples: [SensorSample] = []
        while let s = try reader.nextSample() { samples.append(s) }
        let aided = samples.filter { $0.speed != nil }
        #expect(samples.first?.speed == nil && samples.last?.speed == nil, "none before the first fix, none once it is old")
        #expect(aided.count > 50, "\(aided.count) of \(samples.count)")
        #expect(aided.allSatisfy { abs($0.speed! - 2.5 * 1852 / 3600) < 0.001 && $0.track == 45 })
        print("measured record --gpsd: \(aided.count) of \(samples.count) samples with speed and track")
    }
}
