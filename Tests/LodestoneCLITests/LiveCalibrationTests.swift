import Foundation
import LodestoneCore
import LodestoneSimulatedBoard
import LodestoneTestSupport
import Testing

/// `lodestone calibrate` live, on a simulated IIO board (fake sysfs in a private
/// namespace) whose attitude the test changes over time: a user turning it.
/// Fails in CI when namespaces cannot be made, skips elsewhere.
@Suite(.serialized, .enabled(if: namespaceProblem == nil || SharedData.isInCI, "skipped: \(namespaceProblem ?? "")"))
struct LiveCalibrationTests {
    static var problem: String? { namespaceProblem }
    let scratch = TemporaryDirectory()

    /// Runs `lodestone ARGS` inside the board's namespace while `turn` moves the board.
    /// With `interruptAfter`, SIGINT goes to `lodestone` after that many seconds: it
    /// is the forked child of the `unshare` process this test starts (found by PID).
    /// With `terminalColumns`, it runs on a terminal that wide (util-linux `script`
    /// makes one), and standard output and error both come back in `stdout`.
    func run(_ board: SimulatedBoard, _ arguments: [String], interruptAfter: Double? = nil, terminalColumns: Int? = nil,
             turn: @escaping @Sendable (Double) -> Quaternion?) throws -> CommandRunner.Result {
        try run(board, program: [CommandRunner.executable.path] + arguments, interruptAfter: interruptAfter,
                terminalColumns: terminalColumns, turn: turn)
    }

    /// As above, for any program run in the namespace (a script around `lodestone`).
    func run(_ board: SimulatedBoard, program: [String], interruptAfter: Double? = nil, terminalColumns: Int? = nil,
             turn: @escaping @Sendable (Double) -> Quaternion?) throws -> CommandRunner.Result {
        try #require(Self.problem == nil, "namespace tests cannot run: \(Self.problem ?? "")")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let command = board.namespaceCommand(backend: .local, program: program)
        if let terminalColumns {
            let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            p.arguments = ["script", "-qec", "stty cols \(terminalColumns) rows 50; exec /usr/bin/env \(quoted)", "/dev/null"]
            p.standardInput = FileHandle.nullDevice
        } else {
            p.arguments = command
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let done = Flag()
        let mover = Thread {
            let start = Stopwatch()
            while !done.value {
                let t = start.seconds
                if let q = turn(t) { board.setAttitude(q, angularRate: Self.bodyRate(turn, at: t) ?? .zero) }
                usleep(5000)
            }
        }
        mover.start()
        if let interruptAfter {
            let pid = p.processIdentifier
            let interrupter = Thread {
                usleep(useconds_t(interruptAfter * 1e6))
                let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGINT) }
            }
            interrupter.start()
        }
        let result = CommandRunner.collect(p, out: out, err: err)
        done.value = true
        return result
    }

    /// The body's turn rate at `t` (rad/s) from the attitude 1 ms on, so the
    /// board's gyro reads what a turning board's would.
    static func bodyRate(_ turn: (Double) -> Quaternion?, at t: Double) -> Vector3? {
        let step = 0.001
        guard let now = turn(t), let next = turn(t + step) else { return nil }
        let change = now.conjugate * next
        return change.vector * (change.w < 0 ? -2 / step : 2 / step)
    }

    /// A board with hard and soft iron, tumbled by the test: calibrate stops by
    /// itself with a good fit whose offset is the hard iron, and saves it.
    @Test func liveCalibrationOnATumbledBoardFindsTheHardIron() throws {
        let hardIron = Vector3(25, -12, 30)
        let softIron = Matrix3(1.08, 0.03, 0, 0.03, 0.94, 0.02, 0, 0.02, 1.0)
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050, hardIron: hardIron, softIron: softIron)
        defer { board.remove() }
        board.start()
        let profile = scratch.path("live.json")
        // With the live view on (calibrate --http), read by a client for the first 5 s.
        let events = scratch.path("events.txt")
        let script = """
            set -u
            ip link set lo up
            '\(CommandRunner.executable.path)' calibrate --uri local: --rate 100 --timeout 60 -o '\(profile)' --json --http 127.0.0.1:18081 &
            CALIBRATE=$!
            for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/18081) 2>/dev/null && break; sleep 0.05; done
            (exec 3<>/dev/tcp/127.0.0.1/18081; printf 'GET /events HTTP/1.1\\r\\nHost: 127.0.0.1:18081\\r\\n\\r\\n' >&3
             timeout 5 cat <&3 > '\(events)')
            wait $CALIBRATE
            """
        // Turning about three axes at unrelated rates: most orientations come by within 20 s.
        let r = try run(board, program: ["bash", "-c", script]) { t in
            Quaternion(axis: .unitZ, angle: 0.8 * t) * Quaternion(axis: .unitX, angle: 2.3 * t) * Quaternion(axis: .unitY, angle: 1.1 * t)
        }
        #expect(r.status == 0, "exit \(r.status): \(r.stdout)\n\(r.stderr.suffix(1500))")
        // The sphere filled on the live view, one COVERAGE object per refit.
        #expect(r.stderr.contains("live view on http://127.0.0.1:18081/"), "\(r.stderr.suffix(500))")
        let coverage = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("data: ") }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
            .filter { $0["class"] as? String == "COVERAGE" }
        let percents = coverage.compactMap { ($0["percent"] as? NSNumber)?.doubleValue }
        print("measured calibrate --http: coverage on the live view over 5 s: \(percents.map { Int($0) }) %")
        #expect(percents.count >= 4, "\(percents)")
        #expect((percents.last ?? 0) > (percents.first ?? 0) + 10, "the sphere fills: \(percents)")
        #expect(coverage.allSatisfy { ($0["regions"] as? [Any])?.count == 100 })
        let o = try #require(r.objects.first, "\(r.stdout)")
        print("measured live calibration on a simulated HMC5883L: \(o["ending"] ?? "?") after \(o["seconds"] ?? "?") s, \(o["samples"] ?? "?") samples, fit \(o["fit"] ?? "none")")
        #expect(o["ending"] as? String == "converged")
        #expect(o["verdict"] as? String == "good")
        let fit = try #require(o["fit"] as? [String: Any])
        let offset = try #require(fit["offset"] as? [Double])
        #expect((Vector3(offset[0], offset[1], offset[2]) - hardIron).length < 1, "offset \(offset)")
        // The correction undoes the soft iron up to scale (no position given: determinant 1).
        let m = try #require(fit["matrix"] as? [[Double]])
        let product = Matrix3(m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2]) * softIron
        let scale = product.trace / 3
        #expect(product.maxDifference(to: Matrix3.identity * scale) < 0.02 * scale, "M·S = \(product)")
        #expect((o["device"] as? [String: Any])?["name"] as? String == "hmc5883l")
        #expect(o["saved"] as? String == profile)
        let saved = try CalibrationFixtures.profile(profile)
        #expect((saved["device"] as? [String: Any])?["uri"] as? String == "local:")
        // Progress was shown while turning (one line per second on a pipe).
        #expect(r.stderr.contains("calibrate: ") && r.stderr.contains("coverage"), "\(r.stderr.prefix(800))")
        #expect(r.stderr.contains("Turn the board slowly"))
    }

    /// A board whose magnetometer sits 3° askew of its accelerometer, tumbled
    /// with a pause every two seconds: the pauses' readings (the gyro quiet)
    /// show the tilt through the dip, and the saved profile turns it back.
    @Test func liveCalibrationTurnsAnAskewMagnetometerBack() throws {
        let askew = Quaternion(axis: Vector3(0.6, 0.8, 0), angle: 3 * Angle.radiansPerDegree).rotationMatrix
        let softIron = askew * Matrix3(1.08, 0.03, 0, 0.03, 0.94, 0.02, 0, 0.02, 1.0)
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050, hardIron: Vector3(25, -12, 30), softIron: softIron)
        defer { board.remove() }
        board.start()
        let profile = scratch.path("askew.json")
        let r = try run(board, ["calibrate", "--uri", "local:", "--rate", "100", "--timeout", "60", "-o", profile, "--json"]) { t in
            // 1.2 s of turning, then 0.8 s held, again and again.
            let cycles = (t / 2).rounded(.down), moving = cycles * 1.2 + min(t - 2 * cycles, 1.2)
            return Quaternion(axis: .unitZ, angle: 0.8 * moving) * Quaternion(axis: .unitX, angle: 2.3 * moving)
                * Quaternion(axis: .unitY, angle: 1.1 * moving)
        }
        #expect(r.status == 0, "exit \(r.status): \(r.stdout)\n\(r.stderr.suffix(1500))")
        let o = try #require(r.objects.first, "\(r.stdout)")
        let alignment = try #require(o["alignment"] as? [String: Any], "\(o)")
        print("measured live calibration of an askew magnetometer: \(o["seconds"] ?? "?") s, alignment \(alignment)")
        let degrees = try #require(alignment["degrees"] as? Double, "\(alignment)")
        #expect(abs(degrees - 3) < 0.3)
        // Through the profile the soft iron and the tilt are undone up to scale.
        let m = try #require((o["fit"] as? [String: Any])?["matrix"] as? [[Double]])
        let product = Matrix3(m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2]) * softIron
        let scale = product.trace / 3
        #expect(product.maxDifference(to: Matrix3.identity * scale) < 0.02 * scale, "M·S = \(product)")
    }

    /// A board nobody turns, on an 80-column terminal: the guidance is redrawn in place,
    /// every line fits (wrapped, nothing cut off), the coverage map has its legend; at
    /// the timeout the verdict says why, and nothing is saved.
    @Test func aStillBoardTimesOutWithAClearVerdict() throws {
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050, hardIron: Vector3(25, -12, 30))
        defer { board.remove() }
        board.start()
        let profile = scratch.path("still.json")
        let r = try run(board, ["calibrate", "--uri", "local:", "--timeout", "3", "-o", profile], terminalColumns: 80) { _ in nil }
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr.suffix(800))")
        #expect(r.stdout.contains("stopped after"), "\(r.stdout)")
        #expect(r.stdout.contains("timeout"))
        #expect(r.stdout.contains("verdict: REJECTED"))
        #expect(!FileManager.default.fileExists(atPath: profile))

        // The live block: each row is drawn after "erase line" (ESC [2K).
        let drawn = r.stdout.components(separatedBy: "\u{1B}[2K").dropFirst().map { $0.prefix { !$0.isNewline } }
        try #require(!drawn.isEmpty, "no live progress on the terminal: \(r.stdout.prefix(1500))")
        let tooWide = drawn.filter { $0.count > 79 }
        #expect(tooWide.isEmpty, "rows wider than the terminal: \(tooWide)")
        #expect(!drawn.contains { $0.contains("…") }, "a row was cut off")
        let lastBlock = drawn.suffix(24).joined(separator: "\n")
        #expect(lastBlock.contains("next      aim the board's") && lastBlock.contains("magnetic equator)"), "\(lastBlock)")
        #expect(lastBlock.contains("+x       +y       −x       −y") && lastBlock.contains("# field seen there  . not yet"), "\(lastBlock)")
        // The instructions fit too.
        let instructions = r.stdout.split(whereSeparator: \.isNewline).drop { !$0.hasPrefix("Turn the board slowly") }.prefix(4)
        #expect(instructions.count == 4 && instructions.allSatisfy { $0.trimmingCharacters(in: .whitespacesAndNewlines).count <= 79 }, "\(instructions) in \(r.stdout.prefix(600))")
    }

    /// Ctrl-C stops collecting, prints the verdict of what was collected, saves nothing, exit 130.
    @Test func ctrlCAbortsWithoutSaving() throws {
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050, hardIron: Vector3(25, -12, 30))
        defer { board.remove() }
        board.start()
        let profile = scratch.path("interrupted.json")
        let r = try run(board, ["calibrate", "--uri", "local:", "--rate", "100", "--timeout", "60", "-o", profile],
                        interruptAfter: 4) { t in
            Quaternion(axis: .unitZ, angle: 0.8 * t) * Quaternion(axis: .unitX, angle: 2.3 * t)
        }
        #expect(r.status == 130, "exit \(r.status): \(r.stdout)\n\(r.stderr.suffix(800))")
        #expect(r.stdout.contains("interrupted (Ctrl-C)"), "\(r.stdout)")
        #expect(r.stdout.contains("interrupted: nothing saved"))
        #expect(!FileManager.default.fileExists(atPath: profile))
    }

    /// The live accelerometer mode: six faces held still in turn.
    @Test func liveAccelerometerCalibrationFromSixFaces() throws {
        let board = try SimulatedBoard(layout: .hmc5883lMPU6050)
        defer { board.remove() }
        board.start()
        let faces: [Quaternion] = [.identity,
                                   Quaternion(axis: .unitX, angle: .pi),
                                   Quaternion(axis: .unitX, angle: .pi / 2), Quaternion(axis: .unitX, angle: -.pi / 2),
                                   Quaternion(axis: .unitY, angle: .pi / 2), Quaternion(axis: .unitY, angle: -.pi / 2)]
        let profile = scratch.path("accel.json")
        let r = try run(board, ["calibrate", "--sensor", "accelerometer", "--uri", "local:", "--rate", "100", "--timeout", "40",
                                "-o", profile, "--json"]) { t in
            // 2.5 s per face, then a quick turn (0.3 s) to the next: hold still in between.
            let k = Int(t / 2.8) % faces.count
            return faces[k]
        }
        #expect(r.status == 0, "exit \(r.status): \(r.stdout)\n\(r.stderr.suffix(1500))")
        let o = try #require(r.objects.first, "\(r.stdout)")
        print("measured live accelerometer calibration: \(o["ending"] ?? "?") after \(o["seconds"] ?? "?") s, \((o["positions"] as? [Any])?.count ?? 0) positions, fit \(o["fit"] ?? "none")")
        #expect(o["ending"] as? String == "converged")
        #expect(o["verdict"] as? String == "good")
        // The simulated accelerometer has no bias: the offset is quantisation-small.
        let offset = try #require((o["fit"] as? [String: Any])?["offset"] as? [Double])
        #expect(offset.allSatisfy { abs($0) < 0.02 }, "\(offset)")
        #expect((try CalibrationFixtures.profile(profile))["sensor"] as? String == "accelerometer")
    }
}

/// Why namespace tests cannot run here, or nil.
let namespaceProblem: String? = SimulatedBoard.namespaceProblem()

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    var value: Bool {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}
