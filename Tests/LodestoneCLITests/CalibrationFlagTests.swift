import Foundation
import LodestoneTestSupport
import Testing

/// `--calibration` in replay/evaluate: every kind of bad profile is refused with
/// the file and the field named, and no heading is printed from it.
@Suite struct CalibrationFlagTests {
    let scratch = TemporaryDirectory()
    typealias F = CalibrationFixtures

    /// A valid profile (from a simulated tumble) and a log to replay.
    func fixtures() throws -> (profile: String, log: String) {
        let tumble = scratch.path("tumble.lslog"), holds = scratch.path("holds.lslog"), profile = scratch.path("good.json")
        try F.simulate(tumble, ["--scenario", "tumble"])
        try F.simulate(holds, ["--scenario", "holds", "--tilt", "20"])
        let r = try CommandRunner.run(["calibrate", "--from", tumble, "-o", profile])
        guard r.status == 0 else { throw F.Failure(r.stdout + r.stderr) }
        return (profile, holds)
    }

    func variant(_ name: String, of profile: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        var o = try F.profile(profile)
        change(&o)
        return scratch.file(name, String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self))
    }

    func expectRefused(_ arguments: [String], status: Int32 = 1, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try CommandRunner.run(arguments, currentDirectory: scratch.url)
        #expect(r.status == status, "\(arguments): exit \(r.status), \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "a heading was printed despite a bad profile: \(r.stdout.prefix(200))", sourceLocation: sourceLocation)
        for f in fragments {
            #expect(r.stderr.contains(f), "stderr lacks '\(f)': \(r.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyBadProfileIsRefusedByName() throws {
        let (good, log) = try fixtures()
        let text = try String(contentsOfFile: good, encoding: .utf8)
        func parameters(_ o: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
            var p = o["parameters"] as! [String: Any]
            change(&p)
            o["parameters"] = p
        }
        func quality(_ o: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
            var q = o["quality"] as! [String: Any]
            change(&q)
            o["quality"] = q
        }
        let cases: [(String, Int32, [String])] = [
            (scratch.path("missing.json"), 3, ["missing.json: cannot read", "No such file"]),
            (scratch.file("empty.json", ""), 1, ["empty.json: ", "the file is empty"]),
            (scratch.file("cut.json", String(text.prefix(300))), 1, ["cut.json: ", "cut short"]),
            (scratch.file("nan-literal.json", text.replacingOccurrences(of: "\"offset\" : [", with: "\"offset\" : [NaN, ")), 1,
             ["nan-literal.json: ", "NaN or Infinity"]),
            (try variant("nan-string.json", of: good) { o in parameters(&o) { p in
                var m = p["matrix"] as! [[Any]]
                m[1][1] = "nan"
                p["matrix"] = m
            } }, 1, ["nan-string.json: ", "parameters.matrix[1][1] is not a finite number"]),
            (try variant("version.json", of: good) { $0["formatVersion"] = 2 }, 1, ["version.json: ", "formatVersion is 2"]),
            (try variant("singular.json", of: good) { o in parameters(&o) { $0["matrix"] = [[1, 0, 0], [0, 1, 0], [0, 0, 0]] } }, 1,
             ["singular.json: ", "parameters.matrix is not positive-definite"]),
            (try variant("flip.json", of: good) { o in parameters(&o) { $0["matrix"] = [[1, 0, 0], [0, 1, 0], [0, 0, -1]] } }, 1,
             ["flip.json: ", "parameters.matrix is not positive-definite"]),
            (try variant("stretched.json", of: good) { o in parameters(&o) { $0["matrix"] = [[20, 0, 0], [0, 1, 0], [0, 0, 1]] } }, 1,
             ["stretched.json: ", "parameters.matrix is ill-conditioned"]),
            (try variant("rows.json", of: good) { o in parameters(&o) { $0["matrix"] = [[1, 0, 0], [0, 1, 0]] } }, 1,
             ["rows.json: ", "parameters.matrix", "3 rows of 3"]),
            (try variant("no-quality.json", of: good) { o in quality(&o) { $0["fitErrorPercent"] = nil } }, 1,
             ["no-quality.json: ", "field quality.fitErrorPercent is missing"]),
            (try variant("type.json", of: good) { o in parameters(&o) { $0["offset"] = "1,2,3" } }, 1,
             ["type.json: ", "parameters.offset must be"]),
            (try variant("unit.json", of: good) { o in parameters(&o) { $0["unit"] = "m/s^2" } }, 1,
             ["unit.json: ", "parameters.unit"]),
            (try variant("sensor.json", of: good) { $0["sensor"] = "gyroscope" }, 1, ["sensor.json: ", "sensor"]),
            (try variant("weak.json", of: good) { o in quality(&o) { $0["fittedMagnitude"] = 3.0 } }, 1,
             ["weak.json: ", "quality.fittedMagnitude is 3", "outside the plausible"]),
            (try variant("date.json", of: good) { $0["created"] = "2026-02-30T00:00:00Z" }, 1, ["date.json: ", "created"]),
            (scratch.file("not-json.json", "<xml/>"), 1, ["not-json.json: ", "not a valid JSON"]),
        ]
        for (path, status, fragments) in cases {
            try expectRefused(["replay", log, "--calibration", path], status: status, fragments)
        }
        // A directory is not a profile.
        try FileManager.default.createDirectory(atPath: scratch.path("dir.json"), withIntermediateDirectories: true)
        try expectRefused(["replay", log, "--calibration", scratch.path("dir.json")], status: 3, ["dir.json: not a regular file"])
        // evaluate goes through the same path.
        let holdsTruth = scratch.path("truth.csv")
        try F.simulate(holdsTruth, ["--scenario", "holds", "--truth", "--format", "csv"])
        try expectRefused(["evaluate", holdsTruth, "--calibration", scratch.path("singular.json")], ["singular.json: ", "positive-definite"])
        // One profile per sensor.
        try expectRefused(["replay", log, "--calibration", "\(good),\(good)"], status: 2, ["both magnetometer profiles"])
        try expectRefused(["replay", log, "--calibration", "\(good),"], status: 2, ["--calibration takes"])
    }

    /// The profile's device must be the log's device: explicitly given, or found automatically.
    @Test func aProfileForAnotherDeviceIsRefused() throws {
        let (good, log) = try fixtures()
        let lis = scratch.path("lis.lslog")
        try F.withDevice(log, #"{"driver":"st_magn","name":"lis3mdl"}"#, to: lis)
        let hmc = try variant("hmc.json", of: good) { $0["device"] = ["driver": "hmc5843", "name": "hmc5883l"] }
        try expectRefused(["replay", lis, "--calibration", hmc], ["hmc.json: field device.driver is \"hmc5843\"", "\"st_magn\"", "another device"])

        // A file in the device's place in calibration/ that names another device, is anonymous, or is corrupt.
        try FileManager.default.createDirectory(atPath: scratch.path("calibration"), withIntermediateDirectories: true)
        let place = scratch.path("calibration/st_magn-lis3mdl-magnetometer.json")
        try FileManager.default.copyItem(atPath: hmc, toPath: place)
        try expectRefused(["replay", lis], ["calibration/st_magn-lis3mdl-magnetometer.json: field device.driver"])
        try FileManager.default.removeItem(atPath: place)
        try FileManager.default.copyItem(atPath: good, toPath: place)   // made from an anonymous log
        try expectRefused(["replay", lis], ["st_magn-lis3mdl-magnetometer.json: field device", "no identity"])
        try FileManager.default.removeItem(atPath: place)
        _ = scratch.file("calibration/st_magn-lis3mdl-magnetometer.json", "{\"formatVersion\": 1, \"sensor\": \"magnetometer\"")
        try expectRefused(["replay", lis], ["st_magn-lis3mdl-magnetometer.json: ", "not a valid JSON"])
        // `--calibration none` still replays raw.
        #expect(try CommandRunner.run(["replay", lis, "--calibration", "none"], currentDirectory: scratch.url).status == 0)
    }
}
