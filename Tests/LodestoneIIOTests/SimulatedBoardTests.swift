import Foundation
import Testing
import LodestoneCore
import LodestoneIIO
import LodestoneSimulatedBoard
import LodestoneTestSupport

/// Integration: every layout × capture mode × backend, through libiio on a fake sysfs
/// in a private namespace. Fails in CI when namespaces cannot be made, skips elsewhere.
@Suite(.serialized, .enabled(if: Probe.problem == nil || SharedData.isInCI, "skipped: \(Probe.problem ?? "")"))
struct SimulatedBoardTests {
    /// A static attitude away from every axis: yaw 37°, pitch 12°, roll −21°.
    static let attitude = Quaternion(axis: .unitZ, angle: 37 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitX, angle: 12 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitY, angle: -21 * Angle.radiansPerDegree)

    static let cases: [(String, IIOCaptureMode, SimulatedBoard.Backend)] = SimulatedLayout.all.flatMap { l in
        [IIOCaptureMode.buffered, .polled].flatMap { m in SimulatedBoard.Backend.allCases.map { (l.id, m, $0) } }
    }

    func requireNamespace() throws {
        try #require(Probe.problem == nil, "namespace tests cannot run: \(Probe.problem ?? "")")
    }

    /// Per-axis units per count of the magnetometer and accelerometer in the layout.
    func resolution(_ layout: SimulatedLayout, _ kind: IIOSensorKind) -> Double {
        layout.parts.flatMap(\.sensors).first { $0.kind == kind }.map { s in
            s.scaleText.map { (IIOText.double($0) ?? 0) * s.physicalScaleFactor * kind.unitFactor }.max()!
        } ?? 0
    }

    func check(_ run: ProbeRun, board: SimulatedBoard, count: Int, label: String) {
        #expect(run.exitCode == 0, "\(label): exit \(run.exitCode), errors \(run.errors.map(\.text)), stderr \(run.stderr.suffix(600))")
        #expect(run.samples.count == count, "\(label): \(run.samples.count) samples")
        guard !run.samples.isEmpty else { return }
        let truth = board.bodyTruth()
        let layout = board.layout
        // Quantisation ±0.5 count plus dither ±noise counts on each axis.
        let magTol = (board.noise + 0.5) * resolution(layout, .magnetometer) * 3.0.squareRoot() * 1.01
        let accTol = (board.noise + 0.5) * resolution(layout, .accelerometer) * 3.0.squareRoot() * 1.01
        var worstM = 0.0, worstA = 0.0
        var mSum = Vector3.zero, aSum = Vector3.zero
        for s in run.samples {
            worstM = max(worstM, (s.m - truth.magneticField).length)
            worstA = max(worstA, (s.a - truth.acceleration).length)
            mSum += s.m
            aSum += s.a
        }
        #expect(worstM <= magTol, "\(label): magnetometer off by \(worstM) µT (tolerance \(magTol)); truth \(truth.magneticField), first \(run.samples[0].m)")
        #expect(worstA <= accTol, "\(label): accelerometer off by \(worstA) m/s² (tolerance \(accTol)); truth \(truth.acceleration), first \(run.samples[0].a)")
        let n = Double(run.samples.count)
        let h = heading(magneticField: mSum / n, acceleration: aSum / n)
        let hTruth = heading(magneticField: truth.magneticField, acceleration: truth.acceleration)
        let headingError = abs(Angle.difference(from: hTruth, to: h))
        print("measured \(label): heading error \(headingError)° over \(run.samples.count) samples, worst |Δm| \(worstM) µT, worst |Δa| \(worstA) m/s²")
        #expect(headingError <= 0.2, "\(label): heading \(h)° vs truth \(hTruth)°")
        let times = run.samples.map(\.t)
        #expect(times.first == 0, "\(label): first time \(times.first ?? -1)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(label): times go backwards")
        #expect(abs(run.samples[0].wall - Date().timeIntervalSince1970) < 120, "\(label): startWallClock \(run.samples[0].wall)")
    }

    @Test(arguments: cases)
    func samplesMatchTruth(layoutID: String, mode: IIOCaptureMode, backend: SimulatedBoard.Backend) throws {
        try requireNamespace()
        let layout = try #require(SimulatedLayout.named(layoutID))
        let board = try SimulatedBoard(layout: layout, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let count = 40
        let run = try Probe.run(board, backend: backend, arguments: ["--mode", mode.rawValue, "--rate", "100", "--count", String(count)])
        check(run, board: board, count: count, label: "\(layoutID) \(mode) \(backend)")
        #expect(run.metadata["mode"] as? String == mode.rawValue)
        #expect(run.samples.last?.flags == [], "no stuck/saturated flags on a healthy board: \(run.samples.last?.flags ?? [])")
        if board.layout.parts.flatMap(\.sensors).contains(where: { $0.kind == .gyroscope }) {
            #expect(run.samples.allSatisfy { $0.g != nil }, "gyroscope missing")
        }
    }

    @Test(arguments: SimulatedLayout.all.map(\.id))
    func boardRotation90(layoutID: String) throws {
        try requireNamespace()
        let layout = try #require(SimulatedLayout.named(layoutID))
        let board = try SimulatedBoard(layout: layout, attitude: Self.attitude, boardRotation: BoardRotation.aboutZ(degrees: 90))
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "buffered", "--rate", "100", "--count", "40", "--board-rotation", "90"])
        check(run, board: board, count: 40, label: "\(layoutID) rotated 90°")
    }

    @Test(arguments: SimulatedLayout.all.map(\.id))
    func deviceListing(layoutID: String) throws {
        try requireNamespace()
        let layout = try #require(SimulatedLayout.named(layoutID))
        let board = try SimulatedBoard(layout: layout)
        defer { board.remove() }
        let run = try Probe.run(board, backend: .ip, arguments: ["--list"])
        #expect(run.exitCode == 0, "\(run.errors.map(\.text)) \(run.stderr.suffix(400))")
        let devices = run.devices.filter { ($0["isTrigger"] as? Bool) == false }
        #expect(devices.count == layout.parts.count)
        for (n, part) in layout.parts.enumerated() {
            guard let d = devices.first(where: { $0["id"] as? String == "iio:device\(n)" }) else {
                Issue.record("iio:device\(n) missing"); continue
            }
            #expect(d["name"] as? String == part.name)
            #expect(d["bufferCapable"] as? Bool == true)
            #expect(d["usesTrigger"] as? Bool == part.usesTrigger)
            #expect(d["hasTimestamp"] as? Bool == true)
            let sensors = d["sensors"] as? [[String: Any]] ?? []
            #expect(sensors.count == part.sensors.count)
            for s in part.sensors {
                guard let info = sensors.first(where: { $0["kind"] as? String == s.kind.rawValue }) else {
                    Issue.record("\(part.name): no \(s.kind) listed"); continue
                }
                #expect(info["mountMatrixFile"] as? String == s.mountMatrixFile)
                #expect((info["mountMatrix"] as? [Double]) == IIOMountMatrix.entries(s.mountMatrix))
                let per = (info["unitsPerCount"] as? [Double]) ?? []
                let expected = s.scaleText.map { IIOText.double($0)! * s.physicalScaleFactor * s.kind.unitFactor }
                #expect(per.count == 3 && zip(per, expected).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }, "\(per) vs \(expected)")
                let corrections = info["corrections"] as? [String] ?? []
                #expect(corrections.isEmpty == (s.physicalScaleFactor == 1), "corrections: \(corrections)")
                let channels = info["channels"] as? [[String: Any]] ?? []
                #expect(channels.compactMap { $0["scanIndex"] as? Int } == s.scanIndex)
                #expect(channels.compactMap { $0["scanType"] as? String } == Array(repeating: s.scanType.description, count: 3))
            }
        }
    }

    @Test func missingAccelerometerIsExplained() throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050)
        defer { board.remove() }
        board.setVanished(true, part: 1)
        let run = try Probe.run(board, backend: .local, arguments: ["--count", "1"])
        #expect(run.exitCode == 1)
        let text = run.errors.first?.text ?? ""
        for needle in ["accelerometer", "local:", "in_accel_x_raw", "hmc5883l", "magn_x", "iio_info -u local:", "--accel"] {
            #expect(text.contains(needle), "error text lacks \(needle): \(text)")
        }
    }

    @Test func pinsSelectDevicesAndBadPinsAreExplained() throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let good = try Probe.run(board, backend: .local, arguments: ["--magn", "lis3mdl", "--accel", "iio:device1", "--count", "5"])
        #expect(good.exitCode == 0 && good.samples.count == 5, "\(good.errors.map(\.text))")
        let bad = try Probe.run(board, backend: .local, arguments: ["--accel", "lis3mdl", "--count", "5"])
        #expect(bad.exitCode == 1)
        let text = bad.errors.first?.text ?? ""
        #expect(text.contains("--accel lis3mdl") && text.contains("in_accel_x_raw") && text.contains("lis3dh"), "\(text)")
    }

    @Test(arguments: [IIOCaptureMode.polled, .buffered])
    func deviceThatVanishesIsRetriedAndResumes(mode: IIOCaptureMode) throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local,
                                arguments: ["--mode", mode.rawValue, "--rate", "50", "--count", "150", "--timeout", "0.5", "--max-errors", "60"]) {
            usleep(1_200_000)
            board.setVanished(true, part: 0)
            usleep(1_500_000)
            board.setVanished(false, part: 0)
        }
        #expect(run.exitCode == 0, "exit \(run.exitCode): \(run.errors.map(\.text)) \(run.stderr.suffix(400))")
        #expect(run.samples.count == 150)
        #expect(!run.errors.isEmpty && run.errors.allSatisfy(\.transient), "\(run.errors.map(\.text))")
        #expect((run.diagnostics["reopenCount"] as? Int ?? 0) >= 1)
        let times = run.samples.map(\.t)
        let gap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        #expect(gap > 1.0, "the outage shows as a gap in sample time (\(gap) s)")
        print("measured vanish \(mode): \(run.errors.count) transient errors, longest gap \(gap) s, first: \(run.errors.first?.text ?? "")")
    }

    @Test func stuckSensorIsFlagged() throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250, attitude: Self.attitude, noise: 0)
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "polled", "--count", "30", "--stuck-after", "20"])
        let flags = run.samples.last?.flags ?? []
        #expect(flags.contains { $0.contains("magnetometer stuck") } && flags.contains { $0.contains("accelerometer stuck") }, "\(flags)")
        #expect(run.samples.first?.flags == [])
    }

    @Test func saturatedSensorIsFlagged() throws {
        try requireNamespace()
        // 5 mT is far beyond the LIS3MDL's ±4 G (400 µT) range: the counts clamp at 32767.
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude, earthField: Vector3(0, 2000, -4600))
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "buffered", "--count", "5"])
        #expect(run.samples.last?.flags.contains { $0.contains("magnetometer saturated") } == true, "\(run.samples.last?.flags ?? [])")
    }

    @Test func slowMagnetometerIsHeldNotInvented() throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "buffered", "--rate", "100", "--magn-rate", "20", "--count", "100"])
        #expect(run.samples.count == 100)
        var changes = 0
        for (a, b) in zip(run.samples, run.samples.dropFirst()) where a.rawMag != b.rawMag { changes += 1 }
        let span = (run.samples.last?.t ?? 0) - (run.samples.first?.t ?? 0)
        print("measured mixed rates: \(changes) magnetometer updates over \(span) s of 100 accelerometer samples")
        #expect(span > 0.8 && span < 1.4, "100 samples at 100 Hz span about 1 s, got \(span)")
        #expect(changes >= 10 && changes <= 35, "about 20 magnetometer samples in 1 s, got \(changes)")
        let magFile = (run.metadata["magnetometer"] as? [String: Any])?["samplingFrequency"] as? Double
        let accFile = (run.metadata["accelerometer"] as? [String: Any])?["samplingFrequency"] as? Double
        #expect(magFile == 20 && accFile == 100, "sampling_frequency set to nearest available: \(String(describing: magFile)), \(String(describing: accFile))")
    }

    @Test func permissionDeniedNamesTheFileAndTheFix() throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "polled", "--count", "3"], asNobody: true)
        #expect(run.exitCode == 1)
        let text = run.errors.first?.text ?? ""
        #expect(text.contains("permission denied on /sys/bus/iio/devices/iio:device0/sampling_frequency"), "\(text) \(run.stderr.suffix(300))")
        #expect(text.contains("tools/99-lodestone-iio.rules"))
        #expect(run.errors.first?.transient == false)
    }

    /// Not a timed test: prints CPU per sample of the buffered path for the notes.
    /// Runs only with LODESTONE_IIO_MEASURE=1 (the real benchmark is `lodestone bench`, later).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LODESTONE_IIO_MEASURE"] == "1"), arguments: [100.0, 1600.0])
    func measureBufferedCPU(rate: Double) throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let count = Int(rate * 5)
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "buffered", "--rate", String(rate), "--count", String(count), "--quiet"])
        let cpu = run.summary["cpuSeconds"] as? Double ?? -1
        let wall = run.summary["wallSeconds"] as? Double ?? -1
        print("measured buffered \(rate) Hz: \(count) samples, CPU \(cpu) s over \(wall) s wall = \(cpu / Double(count) * 1e6) µs/sample, max RSS \(run.summary["maxRSSKiB"] ?? "?") KiB, dropped \(run.diagnostics["droppedScans"] ?? "?")")
        #expect(run.exitCode == 0)
    }
}
