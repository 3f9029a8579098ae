import Foundation
import Synchronization
import Testing
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneIIO
import LodestoneLogs
import LodestoneSimulatedBoard
import LodestoneTestSupport

/// `lodestone devices`, `watch` and `record` on simulated boards: listings, errors,
/// faults, sensor health, mixed rates, signals. Fails in CI when namespaces cannot be
/// made, skips elsewhere.
@Suite(.serialized, .enabled(if: Lodestone.namespaceProblem == nil || SharedData.isInCI, "skipped: \(Lodestone.namespaceProblem ?? "")"))
struct SimulatedBoardTests {
    /// A static attitude away from every axis: yaw 37°, pitch 12°, roll −21°.
    static let attitude = Quaternion(axis: .unitZ, angle: 37 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitX, angle: 12 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitY, angle: -21 * Angle.radiansPerDegree)

    func requireNamespace() throws {
        try #require(Lodestone.namespaceProblem == nil, "namespace tests cannot run: \(Lodestone.namespaceProblem ?? "")")
    }

    @Test(arguments: SimulatedLayout.all.map(\.id))
    func devicesListsSensorsAsJSON(layoutID: String) async throws {
        try requireNamespace()
        let layout = try #require(SimulatedLayout.named(layoutID))
        let board = try SimulatedBoard(layout: layout)
        defer { board.remove() }
        let out = try await Lodestone.run(on: board, backend: .ip, ["devices", "--uri", "ip:127.0.0.1", "--json"])
        #expect(out.status == 0, "\(out.stderr.suffix(400))")
        let all = try #require(try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]])
        let devices = all.filter { ($0["isTrigger"] as? Bool) == false }
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

    @Test func devicesTextNamesEverything() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050)
        defer { board.remove() }
        let out = try await Lodestone.run(on: board, ["devices"])
        #expect(out.status == 0)
        let text = String(decoding: out.stdout, as: UTF8.self)
        for needle in ["iio:device0  hmc5883l", "iio:device1  mpu6050", "magnetometer", "accelerometer", "gyroscope",
                       "0.000009174", "µT/count", "index 0, 2, 1, type be:s16/16>>0", "in_magn_sampling_frequency",
                       "offers 0.75 1.5 3 7.5 15 30 75", "(in_mount_matrix)", "(in_accel_mount_matrix)",
                       "hmc5843 driver: in_magn_scale is 100× too small", "lodestone", "can run"] {
            #expect(text.contains(needle), "devices output lacks '\(needle)':\n\(text)")
        }
    }

    /// An MPU-9250 turned 90° in the device tree: the driver's magnetometer matrix
    /// (P·O) would put the field 180° off; Lodestone uses O·P and says so.
    @Test(arguments: [IIOCaptureMode.buffered, .polled])
    func mpu9250RotatedInTheDeviceTreeGivesTrueHeadings(mode: IIOCaptureMode) async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250(boardMatrix: Matrix3(0, -1, 0, 1, 0, 0, 0, 0, 1)), attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let listing = try await Lodestone.run(on: board, ["devices"])
        #expect(String(decoding: listing.stdout, as: UTF8.self).contains("inv_mpu6050 driver: in_magn_mount_matrix is P·O"))
        let out = try await Lodestone.run(on: board, ["watch", "--mode", mode.rawValue, "--heading-filter", "0", "--count", "150"])
        #expect(out.status == 0, "\(out.stderr)")
        let truth = truthHeading(Self.attitude)
        let settled = out.headings.suffix(50).compactMap { $0["magneticHeading"] as? Double }
        let worst = settled.map { abs(Angle.difference(from: truth, to: $0)) }.max() ?? .infinity
        print("measured mpu9250 with device-tree mount-matrix 90° \(mode): truth \(truth)°, worst of the last 50 \(worst)°")
        #expect(settled.count == 50 && worst <= 0.2, "\(settled.prefix(3)) vs \(truth)")
    }

    /// `watch --auto-calibrate` on a board that holds still: the tracker runs beside
    /// the stream (it says so) and changes nothing (one direction covers no sphere).
    @Test func watchTakesAutoCalibrate() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let out = try await Lodestone.run(on: board, ["watch", "--calibration", "none", "--auto-calibrate", "--heading-filter", "0", "--count", "100"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("hard-iron tracking is on without a calibration profile: updates are kept in memory only"), "\(out.stderr)")
        #expect(out.headings.count == 100)
        #expect(!out.events.contains { $0["event"] as? String == "calibrationUpdated" }, "a still board swings nothing out either")
    }

    @Test func missingAccelerometerIsExplained() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050)
        defer { board.remove() }
        board.setVanished(true, part: 1)
        let out = try await Lodestone.run(on: board, ["watch", "--count", "1"])
        #expect(out.status == 3)
        #expect(out.stdout.isEmpty)
        for needle in ["accelerometer", "local:", "in_accel_x_raw", "hmc5883l", "magn_x", "lodestone devices --uri local:", "--accel"] {
            #expect(out.stderr.contains(needle), "error text lacks \(needle): \(out.stderr)")
        }
    }

    @Test func unreachableIIODIsAnInaccessibleDevice() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250)
        defer { board.remove() }
        let out = try await Lodestone.run(on: board, backend: .local, ["watch", "--uri", "ip:127.0.0.1", "--count", "1"])
        #expect(out.status == 3, "\(out.stderr)")
        #expect(out.stderr.contains("ip:127.0.0.1"), "\(out.stderr)")
    }

    @Test func pinsSelectDevicesAndBadPinsAreExplained() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let good = try await Lodestone.run(on: board, ["watch", "--magn", "lis3mdl", "--accel", "iio:device1", "--count", "5", "--heading-filter", "0"])
        #expect(good.status == 0 && good.headings.count == 5, "\(good.stderr)")
        let bad = try await Lodestone.run(on: board, ["watch", "--accel", "lis3mdl", "--count", "5"])
        #expect(bad.status == 3)
        #expect(bad.stderr.contains("--accel lis3mdl") && bad.stderr.contains("in_accel_x_raw") && bad.stderr.contains("lis3dh"), "\(bad.stderr)")
        let usage = try await Lodestone.run(on: board, ["watch", "--mode", "fast"])
        #expect(usage.status == 2 && usage.stderr.contains("--mode must be auto, buffered or polled"))
    }

    /// The Swift API on the board's IIO sensors: `Examples/TrueHeading iio` (HeadingManager from
    /// an IIO source) prints the board's true heading: its magnetic heading plus the model's declination.
    @Test func theSwiftAPIReadsTheBoardsIIOSensors() async throws {
        try requireNamespace()
        let example = try ExamplePackage.executable(package: "TrueHeading", product: "TrueHeading")
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let out = try await Lodestone.run(on: board, program: [example.path, "iio", "--count", "40", "--filter", "0"])
        #expect(out.status == 0, "\(out.stderr.suffix(400))")
        let year = DecimalYear.from(unixTime: Date().timeIntervalSince1970)
        let declination = try GeomagneticModel.wmm2025.elements(latitude: 52.5163, longitude: 13.3777, height: 0.074, decimalYear: year).declination
        let expected = Angle.normalized360(truthHeading(Self.attitude) + declination)
        let headings = out.lines.compactMap { line -> (Double, Double)? in
            guard let m = try? /true heading ([0-9.]+)° ±([0-9.]+)°.*/.wholeMatch(in: String(line)) else { return nil }
            return (Double(m.1)!, Double(m.2)!)
        }
        #expect(headings.count == 40, "\(out.lines)")
        let (last, accuracy) = try #require(headings.last)
        print("measured Swift API on a simulated IIO board: true heading \(last)° ±\(accuracy)°, expected \(expected)°")
        #expect(abs(Angle.difference(from: expected, to: last)) <= max(1, accuracy), "\(last)° vs \(expected)°")
    }

    @Test(arguments: [IIOCaptureMode.polled, .buffered])
    func vanishedDeviceIsAnEventAndTheStreamResumes(mode: IIOCaptureMode) async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let out = try await Lodestone.run(on: board, ["watch", "--mode", mode.rawValue, "--rate", "50", "--heading-filter", "0", "--count", "150"]) { live in
            live.waitForLines(30)
            board.setVanished(true, part: 0)
            usleep(3_000_000)
            board.setVanished(false, part: 0)
        }
        #expect(out.status == 0, "exit \(out.status): \(out.stderr.suffix(400))")
        #expect(out.headings.count == 150)
        let events = out.sourceEvents
        let names = events.compactMap { $0["event"] as? String }
        #expect(names.first == "sourceFault" && names.last == "sourceResumed", "\(names)")
        #expect(names.filter { $0 == "sourceResumed" }.count == 1, "\(names)")
        let reason = events.first?["reason"] as? String ?? ""
        let detail = events.first?["detail"] as? String ?? ""
        #expect(reason == (mode == .polled ? "ioError" : "noData"), "\(reason)")
        #expect(detail.contains("lis3mdl") && detail.contains("will retry"), "\(detail)")
        #expect(events.allSatisfy { ($0["time"] as? String).flatMap(WallClockTime.parse) != nil })
        // The events sit where the outage is, and the outage shows as a gap in sample time.
        let lines = out.objects
        let firstFault = try #require(lines.firstIndex { $0["event"] as? String == "sourceFault" })
        let resumed = try #require(lines.firstIndex { $0["event"] as? String == "sourceResumed" })
        #expect(firstFault > 0 && resumed > firstFault && resumed < lines.count - 1)
        let times = out.headings.compactMap { $0["timestamp"] as? Double }
        let gap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        #expect(gap > 1.0, "the outage shows as a gap in sample time (\(gap) s)")
        print("measured vanish \(mode): events \(names), first: \(reason): \(detail); longest gap \(gap) s")
    }

    @Test func stuckSensorsAreReported() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250, attitude: Self.attitude, noise: 0)
        defer { board.remove() }
        board.start()
        // Compass mode: one heading per sample from the first (gyro fusion starts with the second).
        let out = try await Lodestone.run(on: board, ["watch", "--mode", "polled", "--rate", "50", "--heading-filter", "0", "--count", "130", "--fusion", "ecompass"])
        #expect(out.status == 0)
        let health = out.events.filter { $0["event"] as? String == "sensorHealth" }
        let flags = health.first?["flags"] as? [String] ?? []
        #expect(flags.contains { $0.contains("magnetometer stuck") } && flags.contains { $0.contains("accelerometer stuck") }, "\(out.events)")
        // Reported with the 100th identical reading, not before.
        let index = try #require(out.objects.firstIndex { $0["event"] as? String == "sensorHealth" })
        let before = out.objects[..<index].filter { $0["event"] == nil }.count
        #expect(before == 99, "sensorHealth after \(before) headings")
    }

    @Test func saturatedMagnetometerIsReported() async throws {
        try requireNamespace()
        // 5 mT is far beyond the LIS3MDL's ±4 G (400 µT) range: the counts clamp at 32767.
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude, earthField: Vector3(0, 2000, -4600))
        defer { board.remove() }
        board.start()
        let out = try await Lodestone.run(on: board, ["watch", "--mode", "buffered", "--count", "5", "--heading-filter", "0"])
        #expect(out.status == 0)
        let first = try #require(out.sourceEvents.first)
        #expect(first["event"] as? String == "sensorHealth" && first["timestamp"] as? Double == 0)
        #expect((first["flags"] as? [String])?.contains { $0.contains("magnetometer saturated") } == true, "\(first)")
        #expect(out.headings.allSatisfy { ($0["headingAccuracy"] as? Double) == -1 }, "a saturated field gives invalid headings")
    }

    /// The BMM150 runs at 30 Hz (its fastest) under a 100 Hz BMI160: each accelerometer
    /// sample carries the latest magnetometer reading, which changes 30 times a second.
    /// Large dither makes consecutive readings differ, so changes count updates.
    @Test func slowMagnetometerIsHeldNotInvented() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .bmi160BMM150, attitude: Self.attitude, noise: 40)
        defer { board.remove() }
        board.start()
        let log = NSTemporaryDirectory() + "lodestone-mixed-\(UUID().uuidString).lslog"
        defer { unlink(log) }
        let out = try await Lodestone.run(on: board, ["record", "-o", log, "--mode", "buffered", "--rate", "100", "--duration", "2"])
        #expect(out.status == 0, "\(out.stderr)")
        let reader = try LogReader(path: log, options: .init(extraColumns: ["mag_raw_x", "mag_raw_y", "mag_raw_z", "accel_raw_x"]))
        let device = try #require(reader.metadata?.device)
        let magRate = try number(device["magnetometer"]?["samplingFrequency"])
        let accRate = try number(device["accelerometer"]?["samplingFrequency"])
        #expect(magRate == 30 && accRate == 100, "sampling_frequency set to the nearest available: \(magRate), \(accRate)")
        var samples = 0, changes = 0, first = -1.0, last = 0.0
        var previous: [Double] = []
        while let s = try reader.nextSample() {
            let raw = Array(reader.extraValues[0..<3])
            if !previous.isEmpty, raw != previous { changes += 1 }
            previous = raw
            if first < 0 { first = s.time }
            last = s.time
            samples += 1
        }
        let span = last - first
        print("measured mixed rates: \(samples) samples over \(span) s, \(changes) magnetometer changes (expected about \(magRate * span))")
        #expect(abs(Double(samples) - accRate * span) <= 3, "one sample per accelerometer reading")
        #expect(abs(Double(changes) - magRate * span) <= 2, "one change per magnetometer reading: \(changes) in \(span) s")
    }

    /// A feeder that wakes late, as on a busy machine, writes the scans due meanwhile with
    /// their own time's values, as a sensor's FIFO holds them: no scan stamped before a
    /// turn carries the turn. (A CI run once failed on scans dated back this way.)
    /// One device (MPU-9250) carries all three sensors in each scan, so what is checked
    /// is the scans' dating alone: with separate devices, the reader pairs each
    /// accelerometer scan with the magnetometer's latest, and after a burst the two
    /// devices' scans reach it in either order (docs/iio.md, "Known limit: bursts with separate devices").
    @Test func aLateFeederDatesNoMotionBack() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let log = NSTemporaryDirectory() + "lodestone-late-\(UUID().uuidString).lslog"
        defer { unlink(log) }
        let turned = Quaternion(axis: .unitZ, angle: 90 * Angle.radiansPerDegree) * Self.attitude
        // The turn happens somewhere between the two clock readings around it: on a busy
        // machine the test's thread may be held between reading the clock and turning.
        let times = Locked((stall: Double.infinity, turnFrom: Double.infinity, turnTo: Double.infinity))
        let out = try await Lodestone.run(on: board, ["record", "-o", log, "--mode", "buffered", "--rate", "50", "--duration", "3"]) { live in
            guard live.waitForLines(1) else { return }
            times.withLock { $0.stall = Date().timeIntervalSince1970 }
            board.stallFeeder(seconds: 1)
            usleep(500_000)
            let from = Date().timeIntervalSince1970
            board.setAttitude(turned)
            let to = Date().timeIntervalSince1970
            times.withLock { $0.turnFrom = from; $0.turnTo = to }
        }
        #expect(out.status == 0, "\(out.stderr.suffix(600))")
        let (stall, turnFrom, turnTo) = times.withLock { $0 }
        let reader = try LogReader(path: log)
        let start = try #require(reader.metadata?.startUnixSeconds)
        let stillField = Self.attitude.conjugate.rotate(board.earthField)
        let turnedField = turned.conjugate.rotate(board.earthField)
        var duringStall = 0, before = 0, after = 0, worst = 0.0
        while let s = try reader.nextSample() {
            let t = start + s.time
            if t < turnFrom - 0.05 {
                before += 1
                if t > stall { duringStall += 1 }
                worst = max(worst, (s.magneticField - stillField).length)
            } else if t > turnTo + 0.05 {
                after += 1
                worst = max(worst, (s.magneticField - turnedField).length)
            }
        }
        print("measured late feeder: \(before) samples before the turn (\(duringStall) written late), \(after) after, the turn itself took \(turnTo - turnFrom) s; worst field error \(worst) µT")
        #expect(duringStall >= 15 && after >= 20, "\(duringStall) samples in the stall before the turn, \(after) after it")
        #expect(worst < 1, "a scan carries another time's field: \(worst) µT off (the turn moves it \((turnedField - stillField).length) µT)")
    }

    @Test func permissionDeniedNamesTheFileAndTheFix() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let out = try await Lodestone.run(on: board, ["watch", "--mode", "polled", "--count", "3"], asNobody: true)
        #expect(out.status == 3)
        #expect(out.stderr.contains("permission denied on /sys/bus/iio/devices/iio:device0/sampling_frequency"), "\(out.stderr)")
        #expect(out.stderr.contains("tools/99-lodestone-iio.rules"))
    }

    /// Ctrl-C ends a recording with exit code 130, and the file holds every sample
    /// whose heading was printed: replaying it prints the same lines.
    @Test func interruptedRecordingIsCompleteAndExits130() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let log = NSTemporaryDirectory() + "lodestone-sigint-\(UUID().uuidString).lslog"
        defer { unlink(log) }
        let printedBeforeCtrlC = 150
        let out = try await Lodestone.run(on: board, ["record", "-o", log, "--rate", "100", "--heading-filter", "0"]) { live in
            live.waitForLines(printedBeforeCtrlC)
            live.signal(SIGINT)
        }
        #expect(out.status == 130, "\(out.stderr)")
        // Lines, not headings: the run's first line is its calibrationNeeded event.
        #expect(out.lines.count >= printedBeforeCtrlC, "a line printed before Ctrl-C is missing: \(out.lines.count)")
        #expect(out.headings.count >= printedBeforeCtrlC - out.events.count)
        let reader = try LogReader(path: log)
        var samples = 0, lastTime = -1.0
        while let s = try reader.nextSample() {
            samples += 1
            lastTime = s.time
        }
        let lastHeading = try #require(out.headings.last?["timestamp"] as? Double)
        #expect(samples >= out.headings.count && abs(lastTime - lastHeading) < 1e-6,
                "the file ends with the sample of the last printed heading: \(lastTime) vs \(lastHeading), \(samples) samples")
        let replay = try await Lodestone.run(["replay", log, "--heading-filter", "0"])
        #expect(replay.stdout == out.stdout)
    }

    /// The MPU-9250's temperature channel (`in_temp_raw` 2100, offset 12420, scale
    /// 2.941176 m°C: 36.53 °C + 2100/340, the data sheet's formula) is recorded in the
    /// temperature column, polled and buffered alike; a board whose gyroscope has no
    /// thermometer (or that has no gyroscope) gets no such column.
    @Test(arguments: [IIOCaptureMode.polled, .buffered])
    func theGyroscopesTemperatureIsRecorded(mode: IIOCaptureMode) async throws {
        try requireNamespace()
        for (layout, celsius) in [(SimulatedLayout.mpu9250, Optional(42.7)), (.lis3mdlLIS3DH, nil)] {
            let board = try SimulatedBoard(layout: layout, attitude: Self.attitude)
            defer { board.remove() }
            board.start()
            let log = NSTemporaryDirectory() + "lodestone-temperature-\(UUID().uuidString).lslog"
            defer { unlink(log) }
            let out = try await Lodestone.run(on: board, ["record", "-o", log, "--mode", mode.rawValue, "--duration", "1.5"])
            #expect(out.status == 0, "\(out.stderr)")
            let reader = try LogReader(path: log)
            #expect(reader.hasTemperature == (celsius != nil), "\(layout.id): \(reader.columns)")
            var temperatures: [Double?] = []
            while let s = try reader.nextSample() { temperatures.append(s.temperature) }
            #expect(temperatures.count > 10)
            if let celsius {
                #expect(temperatures.allSatisfy { abs(($0 ?? 0) - celsius) < 0.01 }, "\(temperatures.prefix(3))")
            }
        }
    }

    /// A thermometer that fails while the board runs (its `in_temp_raw` gone, as
    /// when a driver refuses the read) is reported when it happens, naming the
    /// device and the file, and the headings go on without a temperature.
    @Test func aThermometerThatFailsIsReported() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .mpu9250, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let raw = board.deviceDirectories[0] + "/in_temp_raw"
        #expect(FileManager.default.fileExists(atPath: raw))
        let out = try await Lodestone.run(on: board, ["watch", "--mode", "polled", "--rate", "50", "--heading-filter", "0",
                                                      "--count", "200"]) { live in
            live.waitForLines(40)
            unlink(raw)
        }
        #expect(out.status == 0, "exit \(out.status): \(out.stderr.suffix(400))")
        #expect(out.headings.count == 200)
        let health = out.events.filter { $0["event"] as? String == "sensorHealth" }
        #expect(health.count == 1, "\(out.events)")
        let event = try #require(health.first)
        let detail = event["detail"] as? String ?? ""
        #expect(event["reason"] as? String == "thermometerFailed", "\(event)")
        #expect(detail.contains("in_temp_raw") && detail.contains("mpu9250"), "\(detail)")
        let index = try #require(out.objects.firstIndex { $0["event"] as? String == "sensorHealth" })
        #expect(index >= 40 && index < out.objects.count - 1, "reported while the headings go on (line \(index))")
        print("measured thermometer failure at line \(index) of \(out.objects.count): \(detail)")
    }

    /// A profile made by `lodestone calibrate` for this device is found by `record` (from
    /// the live device) and by `replay` (from the log header) alike: the same lines, and
    /// headings that the hard and soft iron would otherwise throw far off.
    @Test func calibrationProfileIsUsedByRecordAndReplayAlike() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050, attitude: Self.attitude, hardIron: Vector3(25, -12, 30),
                                       softIron: Matrix3(1.08, 0.03, 0, 0.03, 0.94, 0.02, 0, 0.02, 1.0))
        defer { board.remove() }
        board.start()
        let dir = NSTemporaryDirectory() + "lodestone-calibrated-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Run from `dir`, so the profile goes to, and is found in, dir/calibration/.
        func inDir(_ arguments: [String]) -> [String] { ["sh", "-c", "cd \"$0\" && exec \"$@\"", dir, Lodestone.executable] + arguments }
        let calibrate = try await Lodestone.run(on: board, program: inDir(["calibrate", "--uri", "local:", "--rate", "100", "--timeout", "60"])) { live in
            let start = Stopwatch()
            while !live.hasEnded, start.seconds < 70 {
                let t = start.seconds
                board.setAttitude(Quaternion(axis: .unitZ, angle: 0.8 * t) * Quaternion(axis: .unitX, angle: 2.3 * t) * Quaternion(axis: .unitY, angle: 1.1 * t))
                usleep(5_000)
            }
            board.setAttitude(Self.attitude)
        }
        #expect(calibrate.status == 0, "\(calibrate.stderr.suffix(800))")
        let profiles = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/calibration")) ?? []
        #expect(profiles.contains { $0.hasSuffix("-magnetometer.json") }, "\(profiles)")

        let log = dir + "/still.lslog"
        let record = try await Lodestone.run(on: board, program: inDir(["record", "-o", log, "--duration", "4", "--heading-filter", "0"]))
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("using the matching calibration"), "\(record.stderr)")
        let replay = try await Lodestone.run(command: ["sh", "-c", "cd \"$0\" && exec \"$@\"", dir, Lodestone.executable, "replay", log, "--heading-filter", "0"])
        #expect(replay.stderr.contains("using the matching calibration"), "\(replay.stderr)")
        #expect(replay.stdout == record.stdout, "replay of the recording differs from what record printed")
        let raw = try await Lodestone.run(["replay", log, "--heading-filter", "0", "--calibration", "none"])

        let truth = truthHeading(Self.attitude)
        func worst(_ out: CommandOutput) -> Double {
            out.headings.filter { ($0["timestamp"] as? Double ?? 0) >= 2.5 }
                .compactMap { $0["magneticHeading"] as? Double }.map { abs(Angle.difference(from: truth, to: $0)) }.max() ?? .infinity
        }
        print("measured calibrated record: settled heading error \(worst(record))° with the profile, \(worst(raw))° without")
        #expect(worst(record) < 2, "with the profile: \(worst(record))°")
        #expect(worst(raw) > 10, "the hard iron should matter: \(worst(raw))°")
    }

    /// `lodestone watch | head -n 3`: watch ends when its reader goes away.
    @Test func watchEndsWhenTheReaderGoesAway() async throws {
        try requireNamespace()
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let command = board.namespaceCommand(backend: .local, program: ["sh", "-c", "\"$0\" watch --heading-filter 0 | head -n 3", Lodestone.executable])
        let started = Stopwatch()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = command
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let pid = p.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 15) { kill(pid, SIGKILL) } // unshare --kill-child takes the rest
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self).split(separator: "\n").count == 3)
        #expect(p.terminationStatus == 0)
        #expect(started.seconds < 10, "watch kept running after head exited")
    }
}
