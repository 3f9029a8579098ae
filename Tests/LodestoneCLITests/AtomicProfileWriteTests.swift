import Foundation
import LodestoneTestSupport
import Testing
import LodestoneSimulation

/// The profile write survives `kill -9` at any moment: the file is always the
/// old complete profile or the new complete one.
@Suite struct AtomicProfileWriteTests {
    let scratch = TemporaryDirectory()
    typealias F = CalibrationFixtures

    @Test func aKillDuringTheWriteLeavesTheOldOrTheNewProfile() throws {
        let oldLog = scratch.path("old.lslog"), newLog = scratch.path("new.lslog")
        try F.simulate(oldLog, ["--scenario", "tumble", "--seed", "11"])
        try CommandRunner.run(["simulate", "-o", newLog, "--scenario", "tumble", "--seed", "12", "--hard-iron", "-5,8,12"]).expectSuccess()
        let target = scratch.path("profile.json")
        let arguments = ["calibrate", "--from", newLog, "-o", target]

        // The new profile, written in full once, for reference.
        _ = try CommandRunner.runKilled(arguments, killAfter: nil)
        let newOffset = try F.profile(target)["parameters"].flatMap { ($0 as? [String: Any])?["offset"] as? [Double] }
        let (duration, _) = try CommandRunner.runKilled(arguments, killAfter: nil)
        try CommandRunner.run(["calibrate", "--from", oldLog, "-o", target]).expectSuccess()
        let old = try Data(contentsOf: URL(fileURLWithPath: target))

        var rng = RandomSource(seed: 20261130) // deterministic delays, so a failure can be replayed
        var killedMidWrite = 0, sawNew = 0, kills = 0
        var midWriteDelays: [Double] = []
        // At least 30 kills, and on until five fell inside the write and one left the new
        // profile (at most 120): how long the write takes against the run depends on the machine.
        for i in 0..<120 where i < 30 || killedMidWrite < 5 || sawNew < 1 {
            // From process start to a little after its normal end, and later while no kill
            // has come after the write: other tests' load can slow the runs well past the
            // reference run (CI once had 120 kills, 33 in the write, none after it).
            let stretch = 1.3 + (sawNew == 0 ? 0.05 * Double(max(0, i - 30)) : 0)
            let delay = rng.uniform() * duration * stretch
            let (_, killed) = try CommandRunner.runKilled(arguments, killAfter: delay)
            kills += killed ? 1 : 0
            let now = try Data(contentsOf: URL(fileURLWithPath: target))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".profile.json.tmp-") }
            if !leftovers.isEmpty {
                killedMidWrite += 1
                midWriteDelays.append(delay)
            }
            for f in leftovers { try FileManager.default.removeItem(atPath: scratch.path(f)) }
            if now == old { continue }
            // Not the old file: it must be a complete new profile.
            let profile = try F.profile(target)
            let offset = (profile["parameters"] as? [String: Any])?["offset"] as? [Double]
            #expect(offset == newOffset, "iteration \(i) (kill after \(delay) s): neither the old nor the new profile:\n\(String(decoding: now, as: UTF8.self))")
            #expect(profile["quality"] != nil && profile["created"] != nil)
            sawNew += 1
            // Put the old profile back for the next round.
            try old.write(to: URL(fileURLWithPath: target))
        }
        print("measured atomic write: \(kills) kills over a \(duration) s run, \(killedMidWrite) in the middle of writing, \(sawNew) left the new profile")
        // The kills did land in the write, so the test can catch a non-atomic write.
        #expect(killedMidWrite >= 5)
        #expect(sawNew >= 1)
        // The next write cleans up what a killed writer left. Kill until one is left: where in
        // the run the write falls depends on the machine (and on a sanitizer), so the delays
        // that fell inside it above come first (under load, 60 random ones once missed it).
        var leftOne = false
        for i in 0..<60 where !leftOne {
            let delay = i < midWriteDelays.count ? midWriteDelays[i] : rng.uniform() * duration * 1.3
            _ = try CommandRunner.runKilled(arguments, killAfter: delay)
            leftOne = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).contains { $0.hasPrefix(".profile.json.tmp-") }
        }
        try #require(leftOne, "no kill of 60 left a temporary file")
        _ = try CommandRunner.runKilled(arguments, killAfter: nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains(".tmp-") }.isEmpty)
    }
}

extension CommandRunner.Result {
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(status == 0, "\(stdout)\n\(stderr)", sourceLocation: sourceLocation)
        if status != 0 { throw CalibrationFixtures.Failure("command failed: \(stderr)") }
    }
}
