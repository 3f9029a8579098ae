import Foundation
import LodestoneTestSupport
import Testing

/// Every option `replay` and `evaluate` accept changes what they do, or is refused with
/// the reason: each is run against the same log as the plain run, and the outputs compared.
@Suite struct OptionEffectTests {
    let scratch = TemporaryDirectory()

    /// The first seconds of the bundled demo recording (a simulated board with a gyroscope), and
    /// the same with truth columns for `evaluate`.
    func demoLog() throws -> String {
        let demo = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("tools/demo/simulated-board.lslog"), encoding: .utf8)
        return scratch.file("demo.lslog", demo.split(separator: "\n", omittingEmptySubsequences: false).prefix(503).joined(separator: "\n") + "\n")
    }

    /// A magnetometer profile fitted from a simulated tumble.
    func profile() throws -> String {
        let tumble = scratch.path("tumble.lslog"), profile = scratch.path("mag.json")
        try CalibrationFixtures.simulate(tumble, ["--scenario", "tumble"])
        try CommandRunner.run(["calibrate", "--from", tumble, "-o", profile]).expectSuccess()
        return profile
    }

    @Test func everyReplayOptionHasAnEffectOrIsRefused() throws {
        let log = try demoLog()
        let plain = try CommandRunner.run(["replay", log])
        try plain.expectSuccess()
        let broken = scratch.file("broken.csv", "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z\n0,0,0,9.81,20,0,-40\n0.02,oops,0,9.81,20,0,-40\n0.04,0,0,9.81,20,0,-40\n")
        let position = ["--lat", "52.5", "--lon", "13.4"]
        let located = try CommandRunner.run(["replay", log] + position)
        let changes: [(String, [String], base: CommandRunner.Result)] = [
            ("heading-filter", ["--heading-filter", "0"], plain),
            ("forward", ["--forward", "+x"], plain),
            ("fusion", ["--fusion", "ecompass"], plain),
            ("calibration", ["--calibration", try profile()], plain),
            ("auto-calibrate", ["--auto-calibrate"], plain),
            ("lat/lon", position, plain),
            ("alt-m", position + ["--alt-m", "800000"], located),
            ("date", position + ["--date", "2029-06-01"], located),
            ("year", position + ["--year", "2025.1"], located),
            ("model", position + ["--model", "wmmhr"], located),
        ]
        for (name, flags, base) in changes {
            let r = try CommandRunner.run(["replay", log] + flags)
            try r.expectSuccess()
            #expect(r.stdout != base.stdout || r.stderr != base.stderr, "--\(name) changed nothing")
        }
        let compass = try CommandRunner.run(["replay", log, "--fusion", "ecompass"])
        let raw = try CommandRunner.run(["replay", log, "--fusion", "ecompass", "--no-smoothing"])
        try raw.expectSuccess()
        #expect(raw.stdout != compass.stdout, "--no-smoothing changed nothing in the compass mode")
        let extrapolated = try CommandRunner.run(["replay", log] + position + ["--year", "2031", "--allow-extrapolation"])
        try extrapolated.expectSuccess()
        #expect(extrapolated.events.contains { $0["event"] as? String == "modelExtrapolated" })
        let skipped = try CommandRunner.run(["replay", broken, "--skip-bad-lines"])
        try skipped.expectSuccess()
        #expect(try CommandRunner.run(["replay", broken]).status == 1 && skipped.stderr.contains("skipped 1 bad line"))

        let refusals: [([String], String)] = [
            (["--no-smoothing"], "--no-smoothing (smoothing: false) changes only the compass mode, and this source has a gyroscope"),
            (["--gpsd", "localhost"], "--gpsd does not apply here: a replay takes its position from --lat/--lon"),
            (position + ["--year", "2031"], "is outside WMM2025's validity"),
        ]
        for (flags, message) in refusals {
            let r = try CommandRunner.run(["replay", log] + flags)
            #expect(r.status == 2, "\(flags): exit \(r.status)")
            #expect(r.stderr.contains(message), "\(flags): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    /// evaluate's options change what it scores (--forward: EvaluateCommandTests; on a yaw-only
    /// error it scores the same as the attitude metric); what cannot change it is refused.
    @Test func evaluateRefusesWhatCannotChangeItsMeasure() throws {
        let log = scratch.path("truth.lslog")
        try CalibrationFixtures.simulate(log, ["--scenario", "holds", "--gyro", "--truth", "--tilt", "20"])
        let plain = try CommandRunner.run(["evaluate", log, "--json"])
        try plain.expectSuccess()
        for flags in [["--heading-filter", "10"], ["--fusion", "ecompass"]] {
            let r = try CommandRunner.run(["evaluate", log, "--json"] + flags)
            try r.expectSuccess()
            #expect(r.stdout != plain.stdout, "\(flags) changed nothing")
        }
        for (flags, reason) in [(["--auto-calibrate"], "evaluate measures a fixed calibration"),
                                (["--no-smoothing"], "this source has a gyroscope")] {
            let r = try CommandRunner.run(["evaluate", log] + flags)
            #expect(r.status == 2, "\(flags): exit \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(reason), "\(flags): \(r.stderr)")
        }
        let help = try CommandRunner.run(["help", "evaluate"])
        #expect(!help.stdout.contains("--auto-calibrate") && help.stdout.contains("--fusion"))
    }
}
