import Foundation
import LodestoneCore
import LodestoneTestSupport
import Testing

@Suite struct EvaluateCommandTests {
    let scratch = TemporaryDirectory()

    @Test func simulatedHoldsScoreNearZeroAndATruthOffsetShowsUp() throws {
        let log = scratch.path("holds.csv")
        let sim = try CommandRunner.run(["simulate", "-o", log, "--scenario", "holds", "--tilt", "20", "--truth",
                                         "--noise", "none", "--format", "csv"])
        #expect(sim.status == 0, "\(sim.stderr)")
        let r = try CommandRunner.run(["evaluate", log, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let exact = try #require(r.objects.first)
        // Noiseless: only the smoothing lag during the turns leaves an error.
        #expect((exact["headingRMSE"] as? Double ?? 99) < 3)

        // Rotate the truth by 10° about up: q_ref' = q(up, 10°) ⊗ q_ref. Every error becomes 10°.
        let text = try String(contentsOfFile: log, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let w = header.firstIndex(of: "truth_w")!
        let c = cos(5.0 * Double.pi / 180), s = sin(5.0 * Double.pi / 180)
        for i in 1..<lines.count {
            var f = lines[i].split(separator: ",").map(String.init)
            let (qw, qx, qy, qz) = (Double(f[w])!, Double(f[w + 1])!, Double(f[w + 2])!, Double(f[w + 3])!)
            // (c + s k) ⊗ (qw + qx i + qy j + qz k)
            f[w] = "\(c * qw - s * qz)"
            f[w + 1] = "\(c * qx - s * qy)"
            f[w + 2] = "\(c * qy + s * qx)"
            f[w + 3] = "\(c * qz + s * qw)"
            lines[i] = f.joined(separator: ",")
        }
        let rotated = scratch.file("rotated.csv", lines.joined(separator: "\n") + "\n")
        let off = try #require(try CommandRunner.run(["evaluate", rotated, "--json", "--no-smoothing"]).objects.first)
        #expect(abs((off["headingRMSE"] as? Double ?? 0) - 10) < 0.01)
    }

    @Test func movementColumnSelectsScoredRowsAndNaNTruthIsSkipped() throws {
        let header = "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z,truth_w,truth_x,truth_y,truth_z,movement"
        // Heading 0 truth (identity); flat board, field north: estimate is identity too.
        let path = scratch.file("m.csv", """
            \(header)
            0,0,0,9.81,0,20,-40,1,0,0,0,0
            0.1,0,0,9.81,0,20,-40,nan,nan,nan,nan,1
            0.2,0,0,9.81,0,20,-40,1,0,0,0,1

            """)
        let r = try #require(try CommandRunner.run(["evaluate", path, "--json"]).objects.first)
        #expect(r["scored"] as? Int == 1)
        #expect((r["headingRMSE"] as? Double ?? 99) < 1e-3)
    }

    /// A copy of a CSV log whose truth quaternions are transformed.
    func rewriteTruth(_ path: String, as name: String, _ transform: (Quaternion) -> Quaternion) throws -> String {
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let w = lines[0].split(separator: ",").map(String.init).firstIndex(of: "truth_w")!
        for i in 1..<lines.count {
            var f = lines[i].split(separator: ",").map(String.init)
            let q = transform(Quaternion(w: Double(f[w])!, x: Double(f[w + 1])!, y: Double(f[w + 2])!, z: Double(f[w + 3])!))
            (f[w], f[w + 1], f[w + 2], f[w + 3]) = ("\(q.w)", "\(q.x)", "\(q.y)", "\(q.z)")
            lines[i] = f.joined(separator: ",")
        }
        return scratch.file(name, lines.joined(separator: "\n") + "\n")
    }

    func evaluate(_ arguments: [String]) throws -> [String: Any] {
        let r = try CommandRunner.run(["evaluate", "--json"] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(r.objects.first)
    }

    func simulatedHolds(tilt: String = "20") throws -> String {
        let log = scratch.path("holds-\(tilt).csv")
        let sim = try CommandRunner.run(["simulate", "-o", log, "--scenario", "holds", "--tilt", tilt, "--truth",
                                         "--noise", "none", "--format", "csv"])
        #expect(sim.status == 0, "\(sim.stderr)")
        return log
    }

    /// A truth tilted by 2° about east: the inclination error is 2° (BROAD's
    /// 2·acos(√(w² + z²))), and the heading error stays as it was.
    @Test func inclinationErrorIsBROADs() throws {
        let log = try simulatedHolds()
        let exact = try evaluate([log, "--no-smoothing"])
        let tilted = try rewriteTruth(log, as: "tilted.csv") { Quaternion(axis: .unitX, angle: 2 * Angle.radiansPerDegree) * $0 }
        let off = try evaluate([tilted, "--no-smoothing"])
        #expect((exact["inclinationRMSE"] as? Double ?? 9) < 0.01)
        #expect(abs((off["inclinationRMSE"] as? Double ?? 0) - 2) < 0.01)
        #expect(abs((off["headingRMSE"] as? Double ?? 9) - (exact["headingRMSE"] as? Double ?? 0)) < 0.05)
    }

    /// With every error exactly 10°, the shares within ±accuracy and beyond 3 ×
    /// accuracy follow from the accuracies `replay` delivers for the same log.
    @Test func accuracySharesCountValidSamples() throws {
        let log = try simulatedHolds(tilt: "60")
        let rotated = try rewriteTruth(log, as: "rotated.csv") { Quaternion(axis: .unitZ, angle: 10 * Angle.radiansPerDegree) * $0 }
        let r = try evaluate([rotated, "--no-smoothing"])
        let replay = try CommandRunner.run(["replay", log, "--heading-filter", "0", "--no-smoothing"])
        let accuracies = replay.headings.compactMap { $0["headingAccuracy"] as? Double }
        let valid = accuracies.filter { $0 >= 0 }
        #expect(r["scored"] as? Int == accuracies.count && r["invalid"] as? Int == accuracies.count - valid.count)
        #expect(valid.count > 1000)
        let within = Double(valid.filter { $0 >= 10 - 1e-9 }.count) / Double(valid.count)
        let beyond = Double(valid.filter { 3 * $0 < 10 - 1e-9 }.count) / Double(valid.count)
        #expect(abs((r["validCoverage"] as? Double ?? -1) - within) < 1e-3)
        #expect(abs((r["beyondThreeAccuracy"] as? Double ?? -1) - beyond) < 1e-3)
    }

    /// A truth rolled about the board's own y axis leaves the heading of +y as it
    /// was but moves that of +x on a tilted board: --forward scores the axis named.
    @Test func forwardScoresTheHeadingOfThatAxis() throws {
        let log = try simulatedHolds(tilt: "30")
        let rolled = try rewriteTruth(log, as: "rolled.csv") { $0 * Quaternion(axis: .unitY, angle: 8 * Angle.radiansPerDegree) }
        let y = try evaluate([rolled, "--no-smoothing", "--forward", "+y"])
        let x = try evaluate([rolled, "--no-smoothing", "--forward", "+x"])
        let axisFree = try evaluate([rolled, "--no-smoothing"])
        #expect((y["headingRMSE"] as? Double ?? 9) < 0.05)
        #expect((x["headingRMSE"] as? Double ?? 0) > 2)
        #expect(abs((axisFree["headingRMSE"] as? Double ?? 0) - (y["headingRMSE"] as? Double ?? 0)) > 1)
    }

    /// A board stood upright (`simulate --tilt 90`): its top edge points at the sky and
    /// has no heading; its back (-z) has one, fused and from the compass alike.
    @Test func anUprightBoardIsScoredByItsBack() throws {
        let log = scratch.path("upright.csv")
        let sim = try CommandRunner.run(["simulate", "-o", log, "--scenario", "holds", "--tilt", "90", "--gyro", "--truth",
                                         "--noise", "none", "--format", "csv"])
        #expect(sim.status == 0, "\(sim.stderr)")
        for fusion in ["auto", "ecompass"] {
            let back = try evaluate([log, "--forward", "-z", "--fusion", fusion])
            #expect((back["headingRMSE"] as? Double ?? 99) < 3, "\(fusion): \(back)")
            #expect(back["invalid"] as? Int == 0, "\(fusion): \(back)")
            let top = try evaluate([log, "--fusion", fusion])
            #expect(top["invalid"] as? Int == top["scored"] as? Int, "\(fusion): \(top)")
        }
    }

    /// --heading-filter scores the heading an app holds: a 30° filter on a steady
    /// spin holds each heading while the board turns 30° on (RMS about 30/√3).
    @Test func headingFilterScoresTheHeldHeading() throws {
        let log = scratch.path("spin.csv")
        _ = try CommandRunner.run(["simulate", "-o", log, "--scenario", "spin", "--turn-rate", "20", "--duration", "60",
                                   "--truth", "--noise", "none", "--format", "csv"])
        let every = try evaluate([log, "--no-smoothing"])
        let held = try evaluate([log, "--no-smoothing", "--heading-filter", "30"])
        #expect((every["headingRMSE"] as? Double ?? 9) < 0.1)
        #expect(abs((held["headingRMSE"] as? Double ?? 0) - 30 / 3.0.squareRoot()) < 1.5, "\(held)")
    }

    @Test func missingTruthColumnsAreAClearError() throws {
        let path = scratch.file("plain.csv", "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z\n0,0,0,9.81,0,20,-40\n")
        let r = try CommandRunner.run(["evaluate", path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("truth_w"))
    }
}

/// The gyroscope's temperature, from the simulator through the log to the fusion.
@Suite struct TemperatureColumnTests {
    let scratch = TemporaryDirectory()

    /// A warming part's log with its temperature column scores better than the
    /// same log without it: `simulate --temperature` writes it, `evaluate` reads
    /// it into the samples, and gyro fusion loosens the bias as the part warms.
    @Test func aWarmingGyrosTemperatureReachesTheFusion() throws {
        var rmse: [Double] = []
        for extra in [[], ["--temperature"]] {
            let log = scratch.path("warming\(extra.count).lslog")
            let sim = try CommandRunner.run(["simulate", "-o", log, "--scenario", "turn", "--turn-rate", "5", "--rate", "50",
                                             "--seed", "7", "--gyro", "--truth", "--gyro-warmup", "1,1,-1,30"] + extra)
            #expect(sim.status == 0, "\(sim.stderr)")
            let r = try CommandRunner.run(["evaluate", log, "--json", "--calibration", "none"])
            #expect(r.status == 0, "\(r.stderr)")
            rmse.append(try #require(r.objects.first?["headingRMSE"] as? Double))
        }
        print("measured warming turn at 50 Hz: \(rmse[0])° without the temperature column, \(rmse[1])° with it")
        #expect(rmse[1] < 0.8 * rmse[0])
    }

    @Test func temperatureNeedsTheGyroscope() throws {
        let r = try CommandRunner.run(["simulate", "-o", scratch.path("t.lslog"), "--temperature"])
        #expect(r.status != 0 && r.stderr.contains("--temperature is the gyroscope's: add --gyro"))
    }
}
