import Foundation
import LodestoneCore
import LodestoneSimulation
import LodestoneTestSupport
import Testing

/// `replay --auto-calibrate`: online hard-iron tracking end to end, on
/// simulated logs with a known hard iron and truth.
@Suite struct AutoCalibrateTests {
    let scratch = TemporaryDirectory()
    typealias F = CalibrationFixtures

    static let oldHardIron = Vector3(20, -15, 35)   // F.hardIron: the profile is made for this
    static let newHardIron = Vector3(28, -20, 41)
    static let softIron = Matrix3(1.1, 0.05, 0, 0.05, 0.9, 0.02, 0, 0.02, 1.05)  // F.softIron

    /// A profile for the old hard iron, made by `calibrate` from a simulated tumble.
    func profile() throws -> String {
        let log = scratch.path("calibration-tumble.lslog"), path = scratch.path("profile.json")
        try F.simulate(log, ["--scenario", "tumble", "--duration", "120", "--period", "20", "--seed", "3"])
        try CommandRunner.run(["calibrate", "--from", log, "-o", path]).expectSuccess()
        return path
    }

    /// A plain CSV with truth columns: the board tumbles (a swing every 20 s)
    /// for `tumble` seconds, then holds still at eight headings tilted 20°. The
    /// hard iron changes to `newHardIron` at `step` seconds.
    func changingLog(tumble: Double, step: Double, softIron: Matrix3 = Self.softIron) -> String {
        let segments: [MotionProfile.Segment] = [
            .sway(center: BoardAttitude(heading: 0), amplitude: BoardAttitude(heading: 180, pitch: 85, roll: 170),
                  period: 20, duration: tumble),
        ] + MotionProfile.holds(tilt: 20).segments
        var errors = SensorErrorModel.typical
        errors.hardIron = Self.oldHardIron
        errors.softIron = softIron
        var recording = SyntheticRecording(profile: MotionProfile(segments), rate: 50, errors: errors, seed: 9)
        recording.carriedFields = [.init(start: step, field: Self.newHardIron - Self.oldHardIron)]
        var lines = ["time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z,truth_w,truth_x,truth_y,truth_z"]
        while let s = recording.nextSample() {
            let q = recording.truth
            lines.append([s.time, s.acceleration.x, s.acceleration.y, s.acceleration.z,
                          s.magneticField.x, s.magneticField.y, s.magneticField.z, q.w, q.x, q.y, q.z]
                .map { "\($0)" }.joined(separator: ","))
        }
        return scratch.file("changing.csv", lines.joined(separator: "\n") + "\n")
    }

    static func offset(_ profile: [String: Any]) -> Vector3 {
        let o = (profile["parameters"] as? [String: Any])?["offset"] as? [Double] ?? [.nan, .nan, .nan]
        return Vector3(o[0], o[1], o[2])
    }

    /// The profile updates of hard-iron tracking (`--auto-calibrate`).
    static func updates(_ r: CommandRunner.Result) -> [[String: Any]] {
        r.events.filter { $0["event"] as? String == "calibrationUpdated" && $0["reason"] as? String == "hardIronTracking" }
    }

    /// The pipeline's own, in memory (``HardIronSwing``): on by default.
    static func swung(_ r: CommandRunner.Result) -> [[String: Any]] {
        r.events.filter { $0["event"] as? String == "calibrationUpdated" && $0["reason"] as? String == "hardIronSwing" }
    }

    @Test func learnsAChangedHardIronAndRewritesTheProfile() throws {
        let path = try profile()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let original = try F.profile(path)
        let log = changingLog(tumble: 330, step: 60)

        // Off by default: the file does not change. The pipeline swings the
        // changed hard iron out in memory as the board turns, so the holds are
        // right all the same (before it did, they were 5° and more off).
        let plain = try CommandRunner.run(["replay", log, "--calibration", path, "--heading-filter", "0"])
        try plain.expectSuccess()
        #expect(Self.updates(plain).isEmpty)
        #expect(!Self.swung(plain).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let swung = try F.settledHeadingError(replay: plain, log: log)

        let r = try CommandRunner.run(["replay", log, "--calibration", path, "--heading-filter", "0", "--auto-calibrate"])
        try r.expectSuccess()
        let events = Self.updates(r)
        let event = try #require(events.first)
        let detail = event["detail"] as? String ?? ""
        let right = try F.settledHeadingError(replay: r, log: log)
        print("measured replay --auto-calibrate: \(detail) at \(event["timestamp"] ?? "?") s; hold heading RMS \(swung.rms)° without, \(right.rms)° with (\(right.count) samples)")
        #expect(events.count == 1, "churn: \(events)")
        #expect(event["reason"] as? String == "hardIronTracking")
        #expect(detail.hasPrefix("offset ("), "\(detail)")
        #expect(detail.contains("→") && detail.contains("fit error") && detail.contains("recent samples"))
        #expect(detail.hasSuffix("saved to \(path)"), "\(detail)")
        #expect((180...240).contains(event["timestamp"] as? Double ?? 0))
        #expect(r.stderr.contains("hard-iron tracking is on: updates are written to \(path)"))
        #expect(swung.rms < 1)
        #expect(right.rms < 1)
        #expect(right.count > 1000)

        // The file: the new offset, the same matrix and date, a note of the change.
        let updated = try F.profile(path)
        #expect((Self.offset(updated) - Self.newHardIron).length < 0.5, "\(Self.offset(updated))")
        #expect((updated["parameters"] as? [String: Any])?["matrix"] as? [[Double]]
                == (original["parameters"] as? [String: Any])?["matrix"] as? [[Double]])
        #expect(updated["created"] as? String == original["created"] as? String)
        let quality = try #require(updated["quality"] as? [String: Any])
        let note = try #require(quality["update"] as? [String: Any])
        #expect(note["method"] as? String == "hardIronTracking")
        #expect(note["previousOffset"] as? [Double] == (original["parameters"] as? [String: Any])?["offset"] as? [Double])
        #expect((quality["fitErrorPercent"] as? Double ?? 99) < 2)
        #expect((note["previousFitErrorPercent"] as? Double ?? 0) > 5)

        // Replayed again from the updated profile: the first minute (the old hard
        // iron) is too short for tracking to learn back, the rest agrees with the
        // profile. (The pipeline's swing follows both in memory.)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let again = try CommandRunner.run(["replay", log, "--calibration", path, "--auto-calibrate"])
        try again.expectSuccess()
        #expect(Self.updates(again).isEmpty, "\(Self.updates(again))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    }

    /// A profile made for the device is matched by name and rewritten in place.
    @Test func aMatchedProfileIsRewrittenInPlace() throws {
        let made = try profile()
        let log = scratch.path("device.lslog"), plain = scratch.path("plain.lslog")
        try F.simulate(plain, ["--scenario", "tumble", "--duration", "330", "--period", "20", "--hard-iron-step", "60,28,-20,41"])
        try F.withDevice(plain, #"{"magnetometer":{"driver":"hmc5843","name":"hmc5883l"}}"#, to: log)
        // The profile, claimed for that device, in calibration/ under the device's name.
        var object = try F.profile(made)
        object["device"] = ["driver": "hmc5843", "name": "hmc5883l"]
        try FileManager.default.createDirectory(atPath: scratch.path("calibration"), withIntermediateDirectories: true)
        let matched = scratch.path("calibration/hmc5843-hmc5883l-magnetometer.json")
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]).write(to: URL(fileURLWithPath: matched))
        let r = try CommandRunner.run(["replay", log, "--auto-calibrate"], currentDirectory: scratch.url)
        try r.expectSuccess()
        #expect(r.stderr.contains("using the matching calibration calibration/hmc5843-hmc5883l-magnetometer.json"), "\(r.stderr)")
        let event = try #require(Self.updates(r).first, "\(r.stderr)")
        #expect((event["detail"] as? String ?? "").hasSuffix("saved to calibration/hmc5843-hmc5883l-magnetometer.json"))
        #expect((Self.offset(try F.profile(matched)) - Self.newHardIron).length < 0.5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("calibration")) == ["hmc5843-hmc5883l-magnetometer.json"])
    }

    /// Things that must never change the profile: the right profile on clean
    /// data (no churn), a board turned flat (a ring) with a wrong offset, a
    /// magnet attached for a minute. The ring's offset, which tracking's sphere
    /// fit cannot place, the pipeline swings out in memory instead.
    @Test(arguments: [
        ("clean", ["--scenario", "tumble", "--duration", "400", "--period", "20"]),
        ("ring", ["--scenario", "spin", "--duration", "400", "--tilt", "3", "--hard-iron-step", "0,28,-20,41"]),
        ("magnet", ["--scenario", "tumble", "--duration", "400", "--period", "20", "--magnet", "100,165,-2,1,14"]),
    ])
    func neverUpdates(name: String, scenario: [String]) throws {
        let path = try profile()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = scratch.path("\(name).lslog")
        try F.simulate(log, scenario)
        let r = try CommandRunner.run(["replay", log, "--calibration", path, "--auto-calibrate"])
        try r.expectSuccess()
        #expect(Self.updates(r).isEmpty, "\(name): \(Self.updates(r))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(name): the profile changed")
        if name == "ring" {
            // The offset in use is wrong from the start: the monitor says so,
            // tracking cannot fix it, the swing does (in memory).
            #expect(r.events.contains { $0["event"] as? String == "magneticDisturbance" || $0["event"] as? String == "calibrationNeeded" })
            #expect(!Self.swung(r).isEmpty)
        } else {
            #expect(Self.swung(r).isEmpty, "\(name): \(Self.swung(r))")
        }
    }

    /// With no profile file the update is used but kept in memory, and the event says so.
    /// (A sensor without soft iron: with the identity matrix in use, a soft-iron
    /// distortion leaves the readings off any sphere, and nothing is learned.)
    @Test func withoutAProfileTheUpdateStaysInMemory() throws {
        let log = changingLog(tumble: 330, step: 0, softIron: .identity)
        let r = try CommandRunner.run(["replay", log, "--calibration", "none", "--auto-calibrate", "--heading-filter", "0"],
                                      currentDirectory: scratch.url)
        try r.expectSuccess()
        let event = try #require(Self.updates(r).first)
        let detail = event["detail"] as? String ?? ""
        #expect(detail.hasSuffix("kept in memory only: no calibration profile file is in use (run 'lodestone calibrate' to make one)"), "\(detail)")
        #expect(r.stderr.contains("hard-iron tracking is on without a calibration profile: updates are kept in memory only"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("calibration")))
        // The offset of the raw readings, (28, -20, 41), without the soft iron: the detail names it.
        #expect(detail.contains("→ (28."), "\(detail)")
    }

    /// The file is replaced atomically: a `kill -9` at any moment of the replay
    /// leaves the old complete profile or the new complete one.
    @Test func aKillDuringTheUpdateLeavesTheOldOrTheNewProfile() throws {
        let path = try profile()
        let old = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = changingLog(tumble: 250, step: 60)
        let arguments = ["replay", log, "--calibration", path, "--auto-calibrate"]
        func run(killAfter: Double?) throws -> (seconds: Double, killed: Bool) {
            try CommandRunner.runKilled(arguments, killAfter: killAfter)
        }
        let (duration, _) = try run(killAfter: nil)
        // The note's time is the wall clock (a plain CSV has none): compare the offset, not the bytes.
        let newOffset = Self.offset(try F.profile(path))
        #expect((newOffset - Self.newHardIron).length < 0.5)
        var rng = RandomSource(seed: 20261201) // deterministic delays, so a failure can be replayed
        var midWrite = 0, sawNew = 0, rounds = 0
        // At least 20 kills, and on until three of them fell inside a write (at most 100):
        // how long the writes take against the whole run depends on the machine.
        for i in 0..<100 where i < 20 || midWrite < 3 {
            rounds += 1
            try old.write(to: URL(fileURLWithPath: path))
            let delay = rng.uniform() * duration * 1.2
            _ = try run(killAfter: delay)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".profile.json.tmp-") }
            if !leftovers.isEmpty { midWrite += 1 }
            for f in leftovers { try FileManager.default.removeItem(atPath: scratch.path(f)) }
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            if now == old { continue }
            // Not the old file: it must be the complete new profile.
            let profile = try? JSONSerialization.jsonObject(with: now) as? [String: Any]
            #expect(profile.map { Self.offset($0) == newOffset && $0["quality"] != nil } == true,
                    "round \(i), killed after \(delay) s: neither the old nor the new profile:\n\(String(decoding: now, as: UTF8.self))")
            sawNew += 1
        }
        print("measured auto-calibrate atomic write: a \(duration) s run, \(midWrite) of \(rounds) kills in the middle of the write, \(sawNew) left the new profile")
        #expect(midWrite >= 3)
    }
}
