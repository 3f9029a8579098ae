import Foundation
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

    @Test func missingTruthColumnsAreAClearError() throws {
        let path = scratch.file("plain.csv", "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z\n0,0,0,9.81,0,20,-40\n")
        let r = try CommandRunner.run(["evaluate", path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("truth_w"))
    }
}
