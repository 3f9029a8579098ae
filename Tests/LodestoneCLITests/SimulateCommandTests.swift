import Foundation
import LodestoneTestSupport
import Testing

/// `lodestone simulate`: every scenario by name, the options that shape it, and
/// what it reports.
@Suite struct SimulateCommandTests {
    let scratch = TemporaryDirectory()

    /// The log as rows of numbers by column name (header after the `#` lines).
    func table(_ path: String) throws -> (columns: [String], rows: [[String]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let columns = lines[0].split(separator: ",").map(String.init)
        return (columns, lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) })
    }

    @Test(arguments: ["demo", "holds", "spin", "tumble", "turn", "full-tumble", "drive", "boat", "walk"])
    func everyScenarioWritesAndSaysWhat(_ scenario: String) throws {
        let log = scratch.path("\(scenario).lslog")
        let long = ["drive", "walk", "turn"].contains(scenario)
        let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", scenario, "--rate", "20", "--gyro", "--truth"]
                                      + (scenario == "holds" || scenario == "demo" ? [] : ["--duration", long ? "100" : "40"]))
        #expect(r.status == 0, "\(r.stderr)")
        let t = try table(log)
        let line = "lodestone: wrote \(log): \(t.rows.count) samples, "
        #expect(r.stdout.hasPrefix(line), "\(r.stdout)")
        #expect(r.stdout.contains(" at 20 Hz; columns \(t.columns.joined(separator: ","))"))
        #expect(t.columns.contains("gyro_z") && t.columns.contains("truth_w") && t.columns.last == "movement")
        if !(scenario == "holds" || scenario == "demo") {
            #expect(t.rows.count == (long ? 2001 : 801))
        }
    }

    @Test func speedColumnsMagnetometerRateAndBias() throws {
        let log = scratch.path("drive.csv")
        let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", "drive", "--duration", "120", "--rate", "200",
                                       "--mag-rate", "20", "--speed", "--speed-rate", "5", "--gyro", "--format", "csv",
                                       "--gyro-bias", "0.5,-0.2,1", "--noise", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("at 200 Hz, magnetometer 20 Hz held;"), "\(r.stdout)")
        let t = try table(log)
        #expect(Array(t.columns.suffix(2)) == ["speed", "track"])
        let speed = t.columns.firstIndex(of: "speed")!, magX = t.columns.firstIndex(of: "mag_x")!
        let speeds = t.rows.compactMap { Double($0[speed]) }
        #expect(speeds.count == t.rows.count && speeds.allSatisfy { $0 >= 0 } && speeds.max()! > 9)
        // Held: the field changes only at every tenth sample; speed only at every 40th.
        for (i, row) in t.rows.enumerated() where i % 10 != 0 {
            #expect(row[magX] == t.rows[i - 1][magX])
        }
        for (i, row) in t.rows.enumerated() where i % 40 != 0 { #expect(row[speed] == t.rows[i - 1][speed]) }
        // Parked for the first 10 s: the gyroscope reads the bias (plus the Earth's 15 °/h).
        let gz = t.columns.firstIndex(of: "gyro_z")!, gx = t.columns.firstIndex(of: "gyro_x")!
        let parked = t.rows.prefix(1500)
        let meanZ = parked.map { Double($0[gz])! }.reduce(0, +) / Double(parked.count)
        let meanX = parked.map { Double($0[gx])! }.reduce(0, +) / Double(parked.count)
        #expect(abs(meanZ - 1 * Double.pi / 180) < 1e-4 && abs(meanX - 0.5 * Double.pi / 180) < 1e-4)
    }

    /// `--gyro-range` holds a reading beyond the full scale at it, as a part does:
    /// a 400 °/s spin reads exactly 250 °/s, sample after sample; the other axes do not.
    @Test func gyroRangeHoldsReadingsAtTheFullScale() throws {
        let log = scratch.path("spin.csv")
        let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", "spin", "--turn-rate", "400", "--duration", "10",
                                       "--rate", "100", "--gyro", "--format", "csv", "--gyro-range", "250"])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try table(log)
        let gz = t.columns.firstIndex(of: "gyro_z")!, gx = t.columns.firstIndex(of: "gyro_x")!
        let z = t.rows.map { Double($0[gz])! }, x = t.rows.map { Double($0[gx])! }
        let held = z.filter { abs(abs($0) - 250 * Double.pi / 180) < 1e-5 }
        #expect(held.count >= z.count - 2 && Set(held).count == 1, "\(z.prefix(5))")
        #expect(Set(x).count > t.rows.count / 2, "the x axis is not held")
        let refused = try CommandRunner.run(["simulate", "-o", log, "--gyro-range", "0"])
        #expect(refused.status == 2 && refused.stderr.contains("--gyro-range"), "\(refused.stderr)")
    }

    /// `--accel-bias` and `--accel-scale` make an accelerometer left uncalibrated:
    /// a board held flat reads `(1 + scale) · g + bias` on z and the bias on x and y.
    @Test func accelerometerBiasAndScaleReachTheReadings() throws {
        let log = scratch.path("uncalibrated.csv")
        let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", "turn", "--duration", "30", "--rate", "50",
                                       "--format", "csv", "--noise", "none", "--accel-bias", "0.3,-0.2,0.4",
                                       "--accel-scale", "0,0,0.01"])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try table(log)
        let columns = ["accel_x", "accel_y", "accel_z"].map { t.columns.firstIndex(of: $0)! }
        let first = columns.map { Double(t.rows[0][$0])! }
        let expected = [0.3, -0.2, 1.01 * 9.80665 + 0.4]
        for (read, want) in zip(first, expected) { #expect(abs(read - want) < 2e-3, "\(first) read, \(expected) expected") }
        let refused = try CommandRunner.run(["simulate", "-o", log, "--accel-bias", "0.3,0.2"])
        #expect(refused.status == 2 && refused.stderr.contains("--accel-bias"), "\(refused.stderr)")
    }

    /// `--gyro-warmup` drifts the bias after switch-on as a warming part's does:
    /// by 1 − e^(−t/τ) of the drift, whatever the board does meanwhile.
    @Test func gyroWarmupDriftsTheBiasAfterSwitchOn() throws {
        let log = scratch.path("warming.csv")
        let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", "turn", "--turn-rate", "1", "--duration", "40",
                                       "--rate", "100", "--gyro", "--format", "csv", "--noise", "none",
                                       "--gyro-warmup", "1,0,0,5"])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try table(log)
        let gx = t.columns.firstIndex(of: "gyro_x")!
        // The level turn reads nothing about x but the Earth's rate, under 0.004 °/s.
        for (second, expected) in [(0.0, 0.0), (5, 1 - exp(-1.0)), (15, 1 - exp(-3.0)), (40, 1 - exp(-8.0))] {
            let degrees = Double(t.rows[Int(second * 100)][gx])! * 180 / Double.pi
            #expect(abs(degrees - expected) < 0.005, "at \(second) s: \(degrees) °/s, \(expected) expected")
        }
        let refused = try CommandRunner.run(["simulate", "-o", log, "--gyro-warmup", "1,0,0,0"])
        #expect(refused.status == 2 && refused.stderr.contains("--gyro-warmup"), "\(refused.stderr)")
    }

    /// `--magnet`'s seventh number grows the field over RISE s (a hard iron
    /// drifting as the board warms); a negative one is refused.
    @Test func magnetRisesOverItsRise() throws {
        let log = scratch.path("rising.csv")
        let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", "turn", "--rate", "10", "--format", "csv",
                                       "--noise", "none", "--magnet", "0,1000,10,0,0,0,8"])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try table(log)
        let mx = t.columns.firstIndex(of: "mag_x")!, time = t.columns.firstIndex(of: "time")!
        func x(at s: Double) -> Double { Double(t.rows.first { Double($0[time])! >= s }![mx])! }
        // The turn's first 10 s are still: mag_x grows by 10 µT over the 8 s rise, then holds.
        #expect(abs((x(at: 4) - x(at: 0)) - 5) < 0.01 && abs((x(at: 9) - x(at: 0)) - 10) < 0.01,
                "\(x(at: 0)) \(x(at: 4)) \(x(at: 9))")
        let refused = try CommandRunner.run(["simulate", "-o", log, "--magnet", "0,10,1,0,0,0,-1"])
        #expect(refused.status == 2 && refused.stderr.contains("RISE"), "\(refused.stderr)")
    }

    /// `--noise K` scales the three white noises: a still board's readings
    /// scatter K times as far about their mean as with typical noise.
    @Test func noiseMultipleScalesTheScatter() throws {
        func scatter(_ noise: String) throws -> (accel: Double, mag: Double, gyro: Double) {
            let log = scratch.path("still-\(noise).csv")
            let r = try CommandRunner.run(["simulate", "-o", log, "--scenario", "spin", "--turn-rate", "0", "--duration", "20",
                                           "--rate", "100", "--gyro", "--format", "csv", "--noise", noise])
            #expect(r.status == 0, "\(r.stderr)")
            let t = try table(log)
            func sd(_ name: String) -> Double {
                let i = t.columns.firstIndex(of: name)!
                let v = t.rows.compactMap { Double($0[i]) }
                let mean = v.reduce(0, +) / Double(v.count)
                return (v.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(v.count)).squareRoot()
            }
            return (sd("accel_x"), sd("mag_x"), sd("gyro_x"))
        }
        let typical = try scatter("typical"), three = try scatter("3")
        for (name, ratio) in [("accelerometer", three.accel / typical.accel), ("magnetometer", three.mag / typical.mag),
                              ("gyroscope", three.gyro / typical.gyro)] {
            #expect(abs(ratio - 3) < 0.3, "\(name): \(ratio) times the typical scatter")
        }
    }

    @Test func reportGoesToStandardErrorWhenTheLogGoesToStandardOutput() throws {
        let r = try CommandRunner.run(["simulate", "-o", "-", "--scenario", "boat", "--duration", "2", "--rate", "10"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("# lodestone-log 1"))
        #expect(r.stderr.contains("wrote /dev/stdout: 21 samples, 2 s at 10 Hz"), "\(r.stderr)")
    }

    @Test(arguments: [
        (["--scenario", "walk", "--period", "3"], "--period does not apply to --scenario walk"),
        (["--scenario", "boat", "--turn-rate", "3"], "--turn-rate does not apply to --scenario boat"),
        (["--scenario", "drive", "--speed-range", "20,10"], "--speed-range needs LOW,HIGH"),
        (["--scenario", "turn", "--duration", "12"], "at least 30 s"),
        (["--scenario", "drive", "--speed-rate", "5"], "add --speed"),
        (["--scenario", "cartwheel"], "unknown --scenario 'cartwheel'"),
        (["--gyro-bias", "1,2"], "--gyro-bias needs 3 comma-separated numbers"),
        (["--battery", "x", "--rate", "10"], "--battery writes the battery's own cases; --output does not apply"),
        (["--cases", "turn-1"], "--cases needs --battery"),
        (["--noise", "loud"], "unknown --noise 'loud'; use none, typical, or a multiple of typical such as 3"),
        (["--noise", "-2"], "unknown --noise '-2'"),
        (["--room-field", "10,5,1,2,3"], "--room-field: END must be after START, got 10.0 and 5.0"),
        (["--room-field", "1,2,3"], "--room-field needs 5 to 7 comma-separated numbers"),
        (["--room-field", "1,2,3,4,5,-1"], "--room-field: FADE must be ≥ 0 s, got -1.0"),
        (["--rate", "50", "--rate", "100"], "--rate is given twice ('50', then '100'); give it once"),
    ])
    func optionsThatCannotApplyAreRefused(_ extra: [String], _ message: String) throws {
        let r = try CommandRunner.run(["simulate", "-o", scratch.path("x.lslog")] + extra)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// `--room-field` adds its east-north-up vector to the earth field from
    /// START to END only: turned into the board's frame by the truth attitude,
    /// the magnetometer differs from the same log without it by exactly that
    /// (noise and all else being the same seed's).
    ///
    /// Two windows, overlapping: each is added for its own time, the second
    /// fading over 10 s after its end.
    @Test func roomFieldsAreAddedInTheEarthFrameForTheirTime() throws {
        let plain = scratch.path("plain.csv"), room = scratch.path("room.csv")
        let common = ["--scenario", "turn", "--turn-rate", "30", "--duration", "40", "--rate", "20", "--truth", "--noise", "none"]
        #expect(try CommandRunner.run(["simulate", "-o", plain] + common).status == 0)
        let windows = [(start: 12.0, end: 16.0, fade: 0.0, field: [6.0, 5, 4]),
                       (start: 14.0, end: 20.0, fade: 10.0, field: [-2.0, 1, 0.5])]
        #expect(try CommandRunner.run(["simulate", "-o", room, "--room-field", "12,16,6,5,4",
                                       "--room-field", "14,20,-2,1,0.5,10"] + common).status == 0)
        let a = try table(plain), b = try table(room)
        func column(_ name: String) -> Int { a.columns.firstIndex(of: name)! }
        for (rowA, rowB) in zip(a.rows, b.rows) {
            let t = Double(rowA[column("time")])!
            let difference = ["mag_x", "mag_y", "mag_z"].map { Double(rowB[column($0)])! - Double(rowA[column($0)])! }
            let (w, x, y, z) = (Double(rowA[column("truth_w")])!, Double(rowA[column("truth_x")])!,
                                Double(rowA[column("truth_y")])!, Double(rowA[column("truth_z")])!)
            // Rᵀ·field, R the body → ENU rotation of the truth quaternion, for each window on.
            let r = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
            let field = windows.reduce([0.0, 0, 0]) { sum, window in
                let (start, end, fade) = (window.start, window.end, window.fade)
                let share = t < start ? 0 : t < end ? 1 : fade > 0 ? max(0, 1 - (t - end) / fade) : 0
                return zip(sum, window.field).map { $0 + $1 * share }
            }
            let expected = (0..<3).map { c in (0..<3).reduce(0.0) { $0 + r[$1][c] * field[$1] } }
            for axis in 0..<3 {
                #expect(abs(difference[axis] - expected[axis]) < 0.01, "t \(t) axis \(axis): \(difference)")
            }
        }
    }

    /// The battery's logs come with the profile a user would pass to `evaluate`.
    @Test func batteryWritesLogsAndProfilesThatEvaluateReads() throws {
        let dir = scratch.path("battery")
        let r = try CommandRunner.run(["simulate", "--battery", dir, "--cases", "turn-2,drive-speed"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2 && r.lines[0].contains("wrote \(dir)/turn-2.lslog: 32201 samples, 322 s at 100 Hz"))
        #expect(r.lines[1].contains("speed,track,truth_w"))
        let e = try CommandRunner.run(["evaluate", "\(dir)/turn-2.lslog", "--calibration", "\(dir)/turn-2.profile.json", "--json"])
        #expect(e.status == 0, "\(e.stderr)")
        #expect((e.objects.first?["scored"] as? Int) == 31201, "scored after the first 10 s")
        let unknown = try CommandRunner.run(["simulate", "--battery", dir, "--cases", "turn-3"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown case 'turn-3'"))
    }
}
