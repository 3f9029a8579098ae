import Foundation
import Testing

/// `lodestone serve` with hard-iron tracking: the config key and the flag, the
/// EVENT to watchers, the profile rewritten; off by default.
@Suite(.serialized) struct ServeAutoCalibrateTests {
    let scratch = ScratchDirectory()
    static let hardIron = "20,-15,35"
    static let softIron = "1.1,0.05,0,0.05,0.9,0.02,0,0.02,1.05"

    func lodestone(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Lodestone.executable)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ProtocolClient.Failure(description: "lodestone \(arguments) failed") }
    }

    /// A profile for hard iron (20, −15, 35), and a log whose hard iron moves to (28, −20, 41) at 60 s.
    func fixtures() throws -> (profile: String, log: String) {
        let tumble = scratch.file("tumble.lslog"), profile = scratch.file("profile.json"), log = scratch.file("changing.lslog")
        try lodestone(["simulate", "-o", tumble, "--scenario", "tumble", "--duration", "120", "--period", "20",
                       "--hard-iron", Self.hardIron, "--soft-iron", Self.softIron])
        try lodestone(["calibrate", "--from", tumble, "-o", profile])
        try lodestone(["simulate", "-o", log, "--scenario", "tumble", "--duration", "300", "--period", "20",
                       "--hard-iron", Self.hardIron, "--soft-iron", Self.softIron, "--hard-iron-step", "60,28,-20,41"])
        return (profile, log)
    }

    /// Runs the replay to its end with one watcher; returns its EVENT objects.
    func serve(_ arguments: [String]) throws -> (events: [[String: Any]], stderr: String) {
        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--socket", socket, "--speed", "max", "--heading-filter", "45"] + arguments, scratch: scratch)
        guard ServiceProcess.waitForSocket(socket) else {
            throw ProtocolClient.Failure(description: "the service did not come up: \(service.stderr)")
        }
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true};"# + "\n")
        let objects = c.readToEnd(timeout: 30)
        #expect(service.waitExit() == 0, "\(service.stderr)")
        #expect(objects.last?.string("event") == "serviceStopping")
        return (objects.filter { $0.className == "EVENT" }, service.stderr)
    }

    static func offset(_ path: String) throws -> [Double] {
        let o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return (o?["parameters"] as? [String: Any])?["offset"] as? [Double] ?? []
    }

    @Test func theFlagUpdatesTheProfileAndTellsWatchers() throws {
        let (profile, log) = try fixtures()
        let before = try Data(contentsOf: URL(fileURLWithPath: profile))

        // Off by default: the profile is not touched. (The pipeline may still
        // swing the changed hard iron out in memory, a `hardIronSwing` update.)
        let plain = try serve(["--source", "replay:\(log)", "--calibration", profile])
        #expect(!plain.events.contains { $0.string("reason") == "hardIronTracking" })
        #expect(try Data(contentsOf: URL(fileURLWithPath: profile)) == before)

        let run = try serve(["--source", "replay:\(log)", "--calibration", profile, "--auto-calibrate"])
        let updates = run.events.filter { $0.string("reason") == "hardIronTracking" }
        let event = try #require(updates.first, "\(run.events.map { $0.string("event") ?? "" }) \(run.stderr)")
        print("measured serve --auto-calibrate: \(event.string("detail") ?? "")")
        #expect(updates.count == 1)
        #expect(event.string("reason") == "hardIronTracking")
        #expect(event.string("time") != nil)
        #expect(event.string("detail")?.hasSuffix("saved to \(profile)") == true, "\(event)")
        #expect(run.stderr.contains("hard-iron tracking is on: updates are written to \(profile)"))
        #expect(run.stderr.contains("calibration updated by hard-iron tracking: offset ("))
        let offset = try Self.offset(profile)
        #expect(offset.count == 3 && zip(offset, [28.0, -20, 41]).allSatisfy { abs($0 - $1) < 0.5 }, "\(offset)")
    }

    @Test func theConfigKeyDoesTheSame() throws {
        let (profile, log) = try fixtures()
        let config = scratch.write("c.json", #"{"calibration":"profile.json","autoCalibrate":true}"#)
        let run = try serve(["--config", config, "--source", "replay:\(log)"])
        let event = try #require(run.events.first { $0.string("event") == "calibrationUpdated" }, "\(run.stderr)")
        #expect(event.string("detail")?.hasSuffix("saved to \(profile)") == true, "\(event)")
        let offset = try Self.offset(profile)
        #expect(offset.count == 3 && zip(offset, [28.0, -20, 41]).allSatisfy { abs($0 - $1) < 0.5 }, "\(offset)")
    }
}
