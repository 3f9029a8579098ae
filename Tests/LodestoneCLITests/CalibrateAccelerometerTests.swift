import Foundation
import LodestoneCore
import LodestoneTestSupport
import Testing
import LodestoneSimulation

/// `calibrate --sensor accelerometer`: offset and scales from still positions,
/// then the profile applied by replay at the source.
@Suite struct CalibrateAccelerometerTests {
    let scratch = TemporaryDirectory()
    typealias F = CalibrationFixtures

    /// The accelerometer's distortion: raw = gain · a + bias.
    static let gain = Vector3(1.03, 0.97, 1.01)
    static let bias = Vector3(0.25, -0.15, 0.3)

    static func distort(_ a: Vector3) -> Vector3 {
        Vector3(a.x * gain.x, a.y * gain.y, a.z * gain.z) + bias
    }

    /// Nine still positions (each face up, three in between), 3 s each at
    /// 100 Hz, with 1.5 s of shaking, turning motion between them.
    func positionsLog() -> String {
        let ups = [Vector3(0, 0, 1), Vector3(0, 0, -1), Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0),
                   Vector3(1, 1, 1).normalized, Vector3(1, -1, 0.5).normalized, Vector3(-1, 0.3, -1).normalized]
        var lines = ["time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z"]
        var t = 0.0, k = 0
        var noise = RandomSource(seed: 5)
        func add(_ a: Vector3) {
            let n = Vector3(noise.uniform() - 0.5, noise.uniform() - 0.5, noise.uniform() - 0.5) * 0.04
            let raw = Self.distort(a) + n
            lines.append("\(t),\(raw.x),\(raw.y),\(raw.z),0,20,-40")
            t = Double(k + 1) / 100
            k += 1
        }
        for (i, up) in ups.enumerated() {
            for _ in 0..<300 { add(up * 9.80665) }
            guard i + 1 < ups.count else { break }
            for j in 0..<150 {
                let f = Double(j) / 150
                let dir = (up * (1 - f) + ups[i + 1] * f + Vector3(0.3, 0.2, -0.1) * sin(f * .pi)).normalized
                add(dir * 9.80665 + Vector3(1, -1, 0.5) * sin(Double(j) * 0.7))
            }
        }
        return scratch.file("positions.csv", lines.joined(separator: "\n") + "\n")
    }

    @Test func stillPositionsGiveOffsetAndScalesThatReplayApplies() throws {
        let log = positionsLog()
        let profilePath = scratch.path("accel.json")
        let r = try CommandRunner.run(["calibrate", "--sensor", "accelerometer", "--from", log, "-o", profilePath])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("9 still positions"), "\(r.stdout)")
        #expect(r.stdout.contains("+z ✓  −z ✓  +x ✓  −x ✓  +y ✓  −y ✓"), "\(r.stdout)")
        let p = try F.profile(profilePath)
        #expect(p["sensor"] as? String == "accelerometer")
        let parameters = try #require(p["parameters"] as? [String: Any])
        #expect(parameters["unit"] as? String == "m/s^2")
        let offset = try #require(parameters["offset"] as? [Double])
        #expect(abs(offset[0] - 0.25) < 0.02 && abs(offset[1] + 0.15) < 0.02 && abs(offset[2] - 0.3) < 0.02, "offset \(offset)")
        let m = try #require(parameters["matrix"] as? [[Double]])
        for (i, g) in [Self.gain.x, Self.gain.y, Self.gain.z].enumerated() {
            #expect(abs(m[i][i] * g - 1) < 0.005, "scale \(i): \(m[i][i]) vs 1/\(g)")
        }
        #expect(((p["quality"] as? [String: Any])?["grade"] as? String) == "good")

        // Tilted holds seen through this accelerometer: the profile undoes the tilt error.
        let clean = scratch.path("holds.csv")
        try CommandRunner.run(["simulate", "-o", clean, "--scenario", "holds", "--tilt", "30", "--truth", "--noise", "none",
                               "--format", "csv"]).expectSuccess()
        let c = try F.columns(clean)
        let header = try String(contentsOfFile: clean, encoding: .utf8).split(separator: "\n")[0]
        let names = header.split(separator: ",").map(String.init)
        var rows = [String(header)]
        for i in c["time"]!.indices {
            let a = Self.distort(Vector3(c["accel_x"]![i], c["accel_y"]![i], c["accel_z"]![i]))
            rows.append(names.map { name -> String in
                switch name {
                case "accel_x": return "\(a.x)"
                case "accel_y": return "\(a.y)"
                case "accel_z": return "\(a.z)"
                default: return "\(c[name]![i])"
                }
            }.joined(separator: ","))
        }
        let holds = scratch.file("biased-holds.csv", rows.joined(separator: "\n") + "\n")
        let raw = try F.settledHeadingError(replay: CommandRunner.run(["replay", holds, "--heading-filter", "0"]), log: holds)
        let fixed = try F.settledHeadingError(replay: CommandRunner.run(["replay", holds, "--heading-filter", "0",
                                                                          "--calibration", profilePath]), log: holds)
        print("measured accelerometer profile on tilted holds: settled heading RMS \(fixed.rms)° with, \(raw.rms)° without")
        #expect(raw.rms > 1)
        #expect(fixed.rms < 0.2)
        #expect(fixed.count > 1000)
    }

    @Test func tooFewPositionsAreRefused() throws {
        let lines = ["time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z"] + (0..<500).map { "\(Double($0) / 100),0,0,9.81,0,20,-40" }
        let log = scratch.file("flat.csv", lines.joined(separator: "\n") + "\n")
        let r = try CommandRunner.run(["calibrate", "--sensor", "accel", "--from", log, "-o", scratch.path("a.json")])
        #expect(r.status == 1)
        #expect(r.stdout.contains("1 still positions"), "\(r.stdout)")
        #expect(r.stdout.contains("too few samples: 1, need at least 4"), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("a.json")))
    }
}
