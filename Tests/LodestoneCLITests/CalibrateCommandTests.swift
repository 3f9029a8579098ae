import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LodestoneCore
import LodestoneTestSupport
import Testing

/// `lodestone calibrate` offline, end to end, and the profile it writes used by replay.
@Suite struct CalibrateCommandTests {
    let scratch = TemporaryDirectory()
    typealias F = CalibrationFixtures

    /// Calibrate on a simulated tumble with known hard and soft iron, then replay
    /// tilted holds with the profile: headings within 0.5° RMS of the truth.
    @Test func tumbleCalibrationGivesTrueHeadingsOnTiltedHolds() throws {
        let tumble = scratch.path("tumble.lslog"), holds = scratch.path("holds.lslog"), profile = scratch.path("p.json")
        try F.simulate(tumble, ["--scenario", "tumble", "--seed", "3"])
        try F.simulate(holds, ["--scenario", "holds", "--tilt", "30", "--truth", "--seed", "4"])

        let cal = try CommandRunner.run(["calibrate", "--from", tumble, "-o", profile, "--lat", "52.5", "--lon", "13.3",
                                         "--date", "2026-06-01"])
        #expect(cal.status == 0, "\(cal.stdout)\n\(cal.stderr)")
        #expect(cal.stdout.contains("model F"), "\(cal.stdout)")
        #expect(cal.stdout.contains("saved \(profile)"), "\(cal.stdout)")
        let p = try F.profile(profile)
        let quality = try #require(p["quality"] as? [String: Any])
        #expect(quality["model"] as? String == "full")
        let offset = try #require((p["parameters"] as? [String: Any])?["offset"] as? [Double])
        #expect(abs(offset[0] - 20) < 0.5 && abs(offset[1] + 15) < 0.5 && abs(offset[2] - 35) < 0.5, "offset \(offset)")
        // Scaled to the model's F at the place, dip measured from the data (simulated: 65°).
        let f = try #require(quality["expectedMagnitude"] as? Double)
        #expect(abs(f - 50.0) < 1.5, "F \(f)")
        #expect(abs((quality["dip"] as? Double ?? 0) - 65) < 1)

        let raw = try F.settledHeadingError(replay: CommandRunner.run(["replay", holds, "--heading-filter", "0"]), log: holds)
        let calibrated = try CommandRunner.run(["replay", holds, "--heading-filter", "0", "--calibration", profile])
        #expect(calibrated.status == 0)
        #expect(calibrated.stderr.contains("using calibration \(profile)"))
        let fixed = try F.settledHeadingError(replay: calibrated, log: holds)
        print("measured tumble → tilted holds: settled heading RMS \(fixed.rms)° calibrated (\(fixed.count) samples), \(raw.rms)° raw")
        #expect(fixed.count > 1000)
        #expect(fixed.rms < 0.5)
        #expect(raw.rms > 10)   // the distortion is large: the test can fail
        // `evaluate` shares the flag.
        let evaluated = try CommandRunner.run(["evaluate", holds, "--json", "--calibration", profile])
        #expect((evaluated.objects.first?["headingRMSE"] as? Double ?? 99) < 2)
    }

    /// A magnetometer 3° askew of the accelerometer: the sphere fit cannot see
    /// it, the dip across the tumble's attitudes can. The profile turns it
    /// back, and a walk with the same sensors is scored against the truth.
    /// Without the turn the walk was 2.9° off and a tumble 1.9°.
    @Test func aMagnetometerAskewOfTheAccelerometerIsTurnedBack() throws {
        let askew = Quaternion(axis: Vector3(0.6, 0.8, 0), angle: 3 * Angle.radiansPerDegree).rotationMatrix
        let m = askew * Matrix3(1.1, 0.05, 0, 0.05, 0.9, 0.02, 0, 0.02, 1.05)   // F.softIron, turned
        let softIron = [m.row0, m.row1, m.row2].flatMap { [$0.x, $0.y, $0.z] }.map { String($0) }.joined(separator: ",")
        let tumble = scratch.path("tumble.lslog"), walk = scratch.path("walk.lslog"), profile = scratch.path("p.json")
        for (path, scenario, seed) in [(tumble, "full-tumble", "3"), (walk, "walk", "4")] {
            let r = try CommandRunner.run(["simulate", "-o", path, "--scenario", scenario, "--duration", "300", "--rate", "100",
                                           "--gyro", "--truth", "--seed", seed, "--hard-iron", F.hardIron, "--soft-iron", softIron])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let cal = try CommandRunner.run(["calibrate", "--from", tumble, "-o", profile, "--json"])
        #expect(cal.status == 0, "\(cal.stdout)\n\(cal.stderr)")
        let alignment = try #require(cal.objects.first?["alignment"] as? [String: Any], "\(cal.stdout)")
        let degrees = try #require(alignment["degrees"] as? Double)
        #expect(abs(degrees - 3) < 0.2, "\(alignment)")
        let evaluated = try CommandRunner.run(["evaluate", walk, "--json", "--calibration", profile])
        let rmse = evaluated.objects.first?["headingRMSE"] as? Double ?? 99
        print("measured misaligned magnetometer: turned \(degrees)°, walk heading RMSE \(rmse)° with the profile")
        #expect(rmse < 0.8)
        let report = try CommandRunner.run(["calibrate", "--from", tumble, "-o", scratch.path("q.json")])
        #expect(report.stdout.contains("onto the accelerometer's axes"), "\(report.stdout)")
    }

    /// Without a position the scale is normalised (determinant 1) and the report says so.
    @Test func withoutAPositionTheScaleIsNormalised() throws {
        let tumble = scratch.path("tumble.csv")
        try F.simulate(tumble, ["--scenario", "tumble", "--format", "csv"])
        let r = try CommandRunner.run(["calibrate", "--from", tumble, "-o", scratch.path("p.json"), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(r.objects.first)
        let fit = try #require(o["fit"] as? [String: Any])
        let m = try #require(fit["matrix"] as? [[Double]])
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        #expect(abs(det - 1) < 1e-9)
        #expect(o["model"] == nil)
        #expect(fit["magnitudeRatio"] is NSNull)
        #expect(abs((fit["fittedMagnitude"] as? Double ?? 0) - 50 * pow(1.1 * 0.9 * 1.05, 1.0 / 3)) < 1)
        #expect(o["saved"] as? String == scratch.path("p.json"))
        let text = try CommandRunner.run(["calibrate", "--from", tumble, "-o", scratch.path("q.json")])
        #expect(text.stdout.contains("scale is normalised"))
    }

    /// Thin coverage: a flat turn is refused with the reason; two rings give a
    /// fallback model (never the full one), graded poor and not saved unless forced.
    @Test func thinCoverageFallsBackOrIsRefused() throws {
        let flat = scratch.path("flat.csv")
        try F.simulate(flat, ["--scenario", "spin", "--tilt", "0", "--format", "csv"])
        let refused = try CommandRunner.run(["calibrate", "--from", flat, "-o", scratch.path("flat.json")])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("orientations too similar"), "\(refused.stdout)")
        #expect(refused.stdout.contains("verdict: REJECTED"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("flat.json")))

        // Two flat rings at different tilts, one after the other.
        let a = scratch.path("a.csv"), b = scratch.path("b.csv")
        try F.simulate(a, ["--scenario", "spin", "--tilt", "0", "--duration", "20", "--format", "csv"])
        try F.simulate(b, ["--scenario", "spin", "--tilt", "50", "--duration", "20", "--format", "csv"])
        let second = try String(contentsOfFile: b, encoding: .utf8).split(separator: "\n").dropFirst().map { line -> String in
            var f = line.split(separator: ",").map(String.init)
            f[0] = String(Double(f[0])! + 30)
            return f.joined(separator: ",")
        }
        let rings = scratch.file("rings.csv", try String(contentsOfFile: a, encoding: .utf8) + second.joined(separator: "\n") + "\n")
        let thin = try CommandRunner.run(["calibrate", "--from", rings, "-o", scratch.path("rings.json"), "--json"])
        let o = try #require(thin.objects.first)
        let fit = try #require(o["fit"] as? [String: Any], "\(thin.stdout)")
        #expect(fit["model"] as? String != "full")
        #expect(o["verdict"] as? String == "poor")
        #expect(thin.status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("rings.json")))
        #expect((o["improvements"] as? [String] ?? []).contains { $0.contains("turn through more orientations") })
        let forced = try CommandRunner.run(["calibrate", "--from", rings, "-o", scratch.path("rings.json"), "--force"])
        #expect(forced.status == 0)
        #expect(try F.profile(scratch.path("rings.json"))["quality"].flatMap { ($0 as? [String: Any])?["grade"] as? String } == "poor")
    }

    /// A fit whose field is implausible (here 150 µT: wrong units, a magnet) is rejected with the reason.
    @Test func implausibleFitsAreRejectedWithTheReason() throws {
        let strong = scratch.path("strong.csv")
        try F.simulate(strong, ["--scenario", "tumble", "--format", "csv", "--field", "150,60"])
        let r = try CommandRunner.run(["calibrate", "--from", strong, "-o", scratch.path("s.json")])
        #expect(r.status == 1)
        #expect(r.stdout.contains("rejected    fitted magnitude 1") && r.stdout.contains("µT is outside the plausible 10–100 µT"), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("s.json")))
    }

    /// A native log that names its device: the profile goes to calibration/<driver>-<name>-magnetometer.json,
    /// and replay of a log from that device picks it up by itself.
    @Test func deviceProfilesAreNamedAndFoundAutomatically() throws {
        let tumble = scratch.path("tumble.lslog"), holds = scratch.path("holds.lslog")
        try F.simulate(tumble, ["--scenario", "tumble"])
        try F.simulate(holds, ["--scenario", "holds", "--tilt", "30", "--truth"])
        let device = #"{"driver":"hmc5843","name":"hmc5883l","uri":"local:"}"#
        let named = scratch.path("named-tumble.lslog"), namedHolds = scratch.path("named-holds.lslog")
        try F.withDevice(tumble, device, to: named)
        try F.withDevice(holds, device, to: namedHolds)

        let cal = try CommandRunner.run(["calibrate", "--from", named], currentDirectory: scratch.url)
        #expect(cal.status == 0, "\(cal.stdout + cal.stderr)")
        let expected = "calibration/hmc5843-hmc5883l-magnetometer.json"
        #expect(cal.stdout.contains("saved \(expected)"))
        let p = try F.profile(scratch.path(expected))
        #expect((p["device"] as? [String: String]) == ["driver": "hmc5843", "name": "hmc5883l", "uri": "local:"])

        let replay = try CommandRunner.run(["replay", namedHolds, "--heading-filter", "0"], currentDirectory: scratch.url)
        #expect(replay.status == 0)
        #expect(replay.stderr.contains("using the matching calibration \(expected)"), "\(replay.stderr)")
        #expect(try F.settledHeadingError(replay: replay, log: namedHolds).rms < 0.5)
        // `none` turns it off; a log without identity never matches.
        let raw = try CommandRunner.run(["replay", namedHolds, "--heading-filter", "0", "--calibration", "none"], currentDirectory: scratch.url)
        #expect(!raw.stderr.contains("calibration"))
        #expect(try F.settledHeadingError(replay: raw, log: namedHolds).rms > 10)
        #expect(!(try CommandRunner.run(["replay", holds], currentDirectory: scratch.url)).stderr.contains("calibration"))

        // An IIO-recorded log names each sensor's device (IIOSourceMetadata); the magnetometer's is used.
        let iioDevice = #"{"uri":"local:","magnetometer":{"kind":"magn","deviceID":"iio:device1","deviceName":"hmc5883l"},"accelerometer":{"kind":"accel","deviceID":"iio:device0","deviceName":"mpu6050"}}"#
        let iioHolds = scratch.path("iio-holds.lslog")
        try F.withDevice(holds, iioDevice, to: iioHolds)
        let cal2 = try CommandRunner.run(["calibrate", "--from", named, "-o", "calibration/hmc5883l-magnetometer.json"],
                                         currentDirectory: scratch.url)
        #expect(cal2.status == 0)
        let viaIIO = try CommandRunner.run(["replay", iioHolds], currentDirectory: scratch.url)
        #expect(viaIIO.stderr.contains("using the matching calibration calibration/hmc5883l-magnetometer.json"), "\(viaIIO.stderr)")
    }

    @Test func windowJSONAndPlot() throws {
        let tumble = scratch.path("tumble.lslog")
        try F.simulate(tumble, ["--scenario", "tumble"])
        let svg = scratch.path("report.svg")
        let r = try CommandRunner.run(["calibrate", "--from", tumble, "--window", "10:40", "--json", "--plot", svg, "-o", scratch.path("w.json"), "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(r.objects.first)
        let span = try #require(o["timeSpan"] as? [Double])
        #expect(span[0] >= 10 && span[1] <= 40)
        #expect(o["samples"] as? Int == 1501)   // 50 Hz × 30 s + 1
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg") && text.contains("corrected XY") && text.contains("coverage"))
        #expect(XMLParser(data: Data(text.utf8)).parse())
    }

    /// A profile or plot that cannot be written: the report (with offset and matrix)
    /// is still printed, the failure named, exit code 3; a failed plot does not lose the profile.
    @Test func unwritableOutputsStillShowTheResult() throws {
        let log = scratch.path("t.lslog")
        try F.simulate(log, ["--scenario", "tumble"])
        let noDir = scratch.path("no-such-dir/p.json")
        let r = try CommandRunner.run(["calibrate", "--from", log, "-o", noDir])
        #expect(r.status == 3)
        #expect(r.stdout.contains("offset") && r.stdout.contains("matrix"), "\(r.stdout)")
        #expect(r.stdout.contains("NOT SAVED: \(noDir): cannot write"), "\(r.stdout)")
        let plot = try CommandRunner.run(["calibrate", "--from", log, "-o", scratch.path("p.json"), "--plot", scratch.path("nope/r.svg")])
        #expect(plot.status == 3)
        #expect(plot.stderr.contains("--plot: \(scratch.path("nope/r.svg")): cannot write"), "\(plot.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("p.json")))
    }

    @Test func usageMistakes() throws {
        let log = scratch.path("t.csv")
        try F.simulate(log, ["--scenario", "tumble", "--format", "csv", "--duration", "5"])
        for args in [["--from", log, "--uri", "local:"], ["--window", "1:2"], ["--from", log, "--timeout", "5"],
                     ["--from", log, "--window", "5:1"], ["--from", log, "--sensor", "gyro"]] {
            let r = try CommandRunner.run(["calibrate"] + args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
        }
        let empty = try CommandRunner.run(["calibrate", "--from", log, "--window", "100:200"])
        #expect(empty.status == 1 && empty.stderr.contains("no samples between"))
        #expect(try CommandRunner.run(["calibrate", "--from", scratch.path("missing.csv")]).status == 3)
        let help = try CommandRunner.run(["help", "calibrate"])
        #expect(help.stdout.contains("--calibration") == false && help.stdout.contains("--plot FILE.svg"))
    }
}
