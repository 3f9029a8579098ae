import Foundation
import LodestoneCore
import LodestoneSimulatedBoard
import LodestoneTestSupport
import Testing

/// `lodestone serve --source iio` on a simulated board (a fake sysfs tree of a real board
/// bound over /sys in a private namespace, fed through a FIFO as /dev/iio:deviceN).
/// Needs root; fails in CI when namespaces cannot be made, skips elsewhere.
@Suite(.serialized, .enabled(if: BoardNamespace.problem == nil || SharedData.isInCI, "skipped: \(BoardNamespace.problem ?? "")"))
struct ServeOnSimulatedBoardTests {
    /// Yaw 50° counter-clockwise (heading 310°), pitch 8°, roll −12°.
    static let attitude = Quaternion(axis: .unitZ, angle: 50 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitX, angle: 8 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitY, angle: -12 * Angle.radiansPerDegree)

    /// The tilt-compensated heading of the +y axis from body-frame field and gravity, worked out
    /// here independently: east = B × up, north = up × east.
    static func truthHeading(_ board: SimulatedBoard) -> Double {
        let t = board.bodyTruth()
        let up = t.acceleration.normalized
        let east = t.magneticField.cross(up).normalized
        let north = up.cross(east)
        var h = atan2(east.y, north.y) * 180 / .pi
        if h < 0 { h += 360 }
        return h
    }

    @Test func headingsFromTheBoardAndTheSensorsReleasedWhileNobodyWatches() throws {
        try #require(BoardNamespace.problem == nil, "namespace tests cannot run: \(BoardNamespace.problem ?? "")")
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let scratch = ScratchDirectory()
        let socket = scratch.file("s.sock") // not in the board's directory: the namespace hides /dev (and /dev/shm)
        let program = [Lodestone.executable, "serve", "--source", "iio", "--rate", "100", "--mode", "buffered",
                       "--socket", socket, "--heading-filter", "0"]
        let service = try ServiceProcess([], scratch: scratch, wrapper: board.namespaceCommand(backend: .local, program: program))
        guard ServiceProcess.waitForSocket(socket, timeout: 20) else {
            Issue.record("the service did not start: \(service.stderr)")
            return
        }
        func bufferEnabled() -> [String] {
            board.deviceDirectories.map { (try? String(contentsOfFile: $0 + "/buffer/enable", encoding: .utf8))?.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))) ?? "?" }
        }
        let c = try ProtocolClient(path: socket)
        _ = c.readObject()
        usleep(300_000)
        #expect(bufferEnabled() == ["0", "0"], "nobody watches yet: the IIO buffers must be off")

        c.send("?DEVICES;\n")
        let devices = try #require(c.read(class: "DEVICES"))
        let list = devices["devices"] as? [[String: Any]] ?? []
        #expect(Set(list.compactMap { $0.string("kind") }) == ["magnetometer", "accelerometer"])
        #expect(Set(list.compactMap { $0.string("name") }) == ["lis3mdl", "lis3dh"])

        let truth = Self.truthHeading(board)
        var latencies: [Double] = []
        for round in 0..<5 {
            let t0 = Stopwatch()
            c.send(#"?WATCH={"enable":true};"# + "\n")
            let first = try #require(c.read(class: "HEADING", timeout: 5), "round \(round): no heading; \(service.stderr)")
            latencies.append(t0.seconds)
            #expect(bufferEnabled() == ["1", "1"], "watching: the IIO buffers must be on")
            let headings = TestLogs.headings(c.collect(for: 0.5)) + [first]
            let settled = headings.compactMap { $0.double("magneticHeading") }.suffix(10)
            #expect(settled.count == 10)
            for h in settled {
                #expect(abs(angleDifference(truth, h)) < 1.5, "heading \(h)° vs truth \(truth)°")
            }
            if round == 4, let pid = findProcess(containing: [socket]), let kB = residentKB(pid) {
                print("measured lodestone serve on a simulated IIO board, 1 client at 100 Hz: RSS \(Int(kB)) kB (\(Lodestone.executable))")
            }
            c.send(#"?WATCH={"enable":false};"# + "\n")
            _ = c.collect(for: 0.6)
            #expect(bufferEnabled() == ["0", "0"], "round \(round): released after the last watcher left")
        }
        let sorted = latencies.sorted()
        print("measured first heading after ?WATCH on a simulated IIO board (lis3mdl+lis3dh, buffered, 100 Hz, devices reopened each time): median \(Int(sorted[2] * 1000)) ms, worst \(Int(sorted[4] * 1000)) ms")
        #expect(sorted[2] < 0.2, "median first-heading latency \(sorted[2]) s")
    }
}

extension ServeOnSimulatedBoardTests {
    /// Without --calibration, serve applies the profile in calibration/ (of its working
    /// directory) named after the magnetometer it opened, as `watch` does: here
    /// `lis3mdl-magnetometer.json`, as the simulated tree has no driver link and no label.
    /// A profile there made for another device stops it (exit 1) with the reason; one that
    /// appears later is picked up on SIGHUP.
    @Test func profilesAreMatchedToTheOpenedDevicesAndReadAgainOnSighup() throws {
        try #require(BoardNamespace.problem == nil, "namespace tests cannot run: \(BoardNamespace.problem ?? "")")
        let hardIron = Vector3(25, -12, 30)
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: Self.attitude, hardIron: hardIron)
        defer { board.remove() }
        board.start()
        let scratch = ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.file("calibration"), withIntermediateDirectories: true)
        func profile(name: String, offset: Vector3) -> String {
            """
            {"formatVersion":1,"sensor":"magnetometer","device":{"name":"\(name)","uri":"local:"},"created":"2026-11-01T00:00:00Z",
             "parameters":{"unit":"uT","offset":[\(offset.x),\(offset.y),\(offset.z)],"matrix":[[1,0,0],[0,1,0],[0,0,1]]},
             "quality":{"model":"full","grade":"good","fitErrorPercent":0.5,"residualRMS":0.2,"fittedMagnitude":48.3,
                        "expectedMagnitude":48.3,"coveragePercent":90,"sampleCount":5000,"outlierCount":0}}
            """
        }
        func serve(_ socket: String, name: String) throws -> ServiceProcess {
            let program = ["sh", "-c", "cd \"$0\" && exec \"$@\"", scratch.path, Lodestone.executable, "serve", "--source", "iio",
                           "--rate", "100", "--mode", "buffered", "--socket", socket, "--heading-filter", "0"]
            return try ServiceProcess([], scratch: scratch, wrapper: board.namespaceCommand(backend: .local, program: program), name: name)
        }
        let profilePath = "calibration/lis3mdl-magnetometer.json"

        scratch.write(profilePath, profile(name: "lsm303agr", offset: hardIron))
        let refused = try serve(scratch.file("refused.sock"), name: "refused")
        #expect(refused.waitExit(timeout: 20) == 1)
        #expect(refused.stderr.contains("calibration: \(profilePath): field device.name is \"lsm303agr\", but the sensor is \"lis3mdl\": this profile belongs to another device"),
                "\(refused.stderr)")

        unlink(scratch.file(profilePath))
        let socket = scratch.file("s.sock")
        let service = try serve(socket, name: "serve")
        guard ServiceProcess.waitForSocket(socket, timeout: 20), let pid = findProcess(containing: [socket]) else {
            Issue.record("the service did not start: \(service.stderr)")
            return
        }
        #expect(service.stderr.contains("no magnetometer calibration: \(profilePath) does not exist"), "\(service.stderr)")
        let truth = Self.truthHeading(board)
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true};"# + "\n")
        let raw = TestLogs.headings(c.collect(for: 1)).compactMap { $0.double("magneticHeading") }.suffix(10)
        #expect(raw.count == 10 && raw.allSatisfy { abs(angleDifference(truth, $0)) > 10 }, "the hard iron should matter: \(raw) vs \(truth)")

        scratch.write(profilePath, profile(name: "lis3mdl", offset: hardIron))
        kill(pid, SIGHUP)
        let corrected = c.read(until: { o in o.className == "HEADING" && abs(angleDifference(truth, o.double("magneticHeading") ?? .nan)) < 1.5 }, timeout: 5)
        #expect(corrected != nil, "the matching profile was not applied after SIGHUP: \(service.stderr)")
        let settled = TestLogs.headings(c.collect(for: 1)).compactMap { $0.double("magneticHeading") }.suffix(10)
        #expect(settled.count == 10 && settled.allSatisfy { abs(angleDifference(truth, $0)) < 1.5 }, "\(settled) vs \(truth)")
        #expect(service.stderr.contains("using the matching calibration \(profilePath) (magnetometer, full model, grade good"), "\(service.stderr)")
        kill(pid, SIGTERM)
        #expect(service.waitExit(timeout: 10) == 0)
    }
}

enum BoardNamespace {
    static let problem: String? = SimulatedBoard.namespaceProblem()
}
