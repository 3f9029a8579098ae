import Foundation
import LodestoneCore
import LodestoneSimulatedBoard
import LodestoneTestSupport
import Synchronization

/// What a `lodestone` command printed and how it ended.
struct CommandOutput {
    var status: Int32
    var stdout: Data
    var stderr: String

    var lines: [Substring] { String(decoding: stdout, as: UTF8.self).split(separator: "\n") }

    /// Every stdout line parsed as a JSON object (lines that are not are skipped).
    var objects: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Heading objects (no `event` key).
    var headings: [[String: Any]] { objects.filter { $0["event"] == nil } }
    var events: [[String: Any]] { objects.filter { $0["event"] != nil } }

    /// Events other than the prompt every uncalibrated run starts with
    /// (`calibrationNeeded` / `neverCalibrated`): faults, health, disturbances.
    /// Events other than the ones every uncalibrated run with or without a position has.
    var unexpectedEvents: [[String: Any]] {
        events.filter {
            let (event, reason) = ($0["event"] as? String, $0["reason"] as? String)
            return !(event == "calibrationNeeded" && reason == "neverCalibrated")
                && !(event == "trueHeadingAvailable" && reason == "positionKnown")
        }
    }

    /// The source's own events: sourceFault, sourceResumed, sensorHealth.
    var sourceEvents: [[String: Any]] {
        events.filter { ["sourceFault", "sourceResumed", "sensorHealth"].contains($0["event"] as? String ?? "") }
    }

    /// The heading lines, byte for byte, each with its newline.
    var headingText: String {
        lines.filter { !$0.contains("\"event\":") }.map { $0 + "\n" }.joined()
    }
}

/// A running `lodestone` inside a simulated board's namespace, for `during` closures.
final class LiveProcess: Sendable {
    let outerPID: pid_t
    private let lineCount = Atomic<Int>(0)

    init(outerPID: pid_t) { self.outerPID = outerPID }

    private let done = Atomic<Bool>(false)

    func sawLines(_ n: Int) { lineCount.add(n, ordering: .relaxed) }

    func ended() { done.store(true, ordering: .relaxed) }

    /// The command has exited (its output may still be arriving).
    var hasEnded: Bool {
        if done.load(ordering: .relaxed) { return true }
        // A zombie waits for Foundation to reap it: the state letter after the name is Z.
        guard let stat = try? String(contentsOfFile: "/proc/\(outerPID)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }

    /// Stdout lines printed so far.
    var lines: Int { lineCount.load(ordering: .relaxed) }

    /// The lodestone process itself (the child `unshare --fork` started), once it runs.
    func lodestonePID() -> pid_t? {
        for _ in 0..<500 {
            if let text = try? String(contentsOfFile: "/proc/\(outerPID)/task/\(outerPID)/children", encoding: .utf8),
               let pid = text.split(separator: " ").first.flatMap({ pid_t(String($0)) }),
               let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
               exe.hasSuffix("/lodestone") {
                return pid
            }
            usleep(10_000)
        }
        return nil
    }

    /// Sends `sig` to the lodestone process (not to unshare, which would ignore it).
    func signal(_ sig: Int32) {
        if let pid = lodestonePID() { kill(pid, sig) }
    }

    /// Waits until at least `n` lines were printed or `timeout` passed.
    @discardableResult
    func waitForLines(_ n: Int, timeout: Double = 20) -> Bool {
        let end = Deadline(timeout)
        while lines < n, !end.hasPassed { usleep(10_000) }
        return lines >= n
    }
}

enum Lodestone {
    /// Why namespace tests cannot run here, or nil.
    static let namespaceProblem: String? = SimulatedBoard.namespaceProblem()

    /// The built `lodestone` beside the test bundle.
    static let executable: String = {
        var candidates: [String] = []
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("lodestone").path)
            dir.deleteLastPathComponent()
        }
        for c in ["debug", "release"] { candidates.append(SharedData.packageRoot.appendingPathComponent(".build/\(c)/lodestone").path) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    /// The URI of a backend inside the namespace.
    static func uri(_ backend: SimulatedBoard.Backend) -> String { backend == .ip ? "ip:127.0.0.1" : "local:" }

    /// Runs `lodestone arguments…` on `board` (inside its namespace); `during` runs on
    /// the same thread while the command runs. Blocking work happens on a thread of
    /// its own, not on Swift concurrency's small pool.
    static func run(on board: SimulatedBoard, backend: SimulatedBoard.Backend = .local, _ arguments: [String],
                    asNobody: Bool = false, during: (@Sendable (LiveProcess) -> Void)? = nil) async throws -> CommandOutput {
        let prefix = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        return try await run(on: board, backend: backend, program: prefix + [executable] + arguments, during: during)
    }

    /// Runs any `program` on `board` (inside its namespace).
    static func run(on board: SimulatedBoard, backend: SimulatedBoard.Backend = .local, program: [String],
                    during: (@Sendable (LiveProcess) -> Void)? = nil) async throws -> CommandOutput {
        try await run(board.namespaceCommand(backend: backend, program: program), during: during)
    }

    /// Runs `lodestone arguments…` directly (no namespace), e.g. `replay`.
    static func run(_ arguments: [String]) async throws -> CommandOutput {
        try await run([executable] + arguments, during: nil)
    }

    /// Runs any command directly (no namespace).
    static func run(command argv: [String]) async throws -> CommandOutput {
        try await run(argv, during: nil)
    }

    private static func run(_ argv: [String], during: (@Sendable (LiveProcess) -> Void)?) async throws -> CommandOutput {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runBlocking(argv, during: during) })
            }.start()
        }
    }

    private static func runBlocking(_ argv: [String], during: (@Sendable (LiveProcess) -> Void)?) throws -> CommandOutput {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let live = LiveProcess(outerPID: p.processIdentifier)
        let collected = Locked((out: Data(), err: Data()))
        let group = DispatchGroup()
        group.enter()
        Thread {
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                live.sawLines(chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
                collected.withLock { $0.out.append(chunk) }
            }
            group.leave()
        }.start()
        group.enter()
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.err = data }
            group.leave()
        }.start()
        during?(live)
        p.waitUntilExit()
        live.ended()
        group.wait()
        return collected.withLock { c in
            CommandOutput(status: p.terminationStatus, stdout: c.out, stderr: String(decoding: c.err, as: UTF8.self))
        }
    }
}

/// Lets at most `limit` simulated-board runs go at once: they mostly wait, but each
/// has a feeder thread and a lodestone process, and CI has two cores.
actor RunLimiter {
    static let shared = RunLimiter(limit: 4)
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }

    func withSlot<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let r = try await body()
            release()
            return r
        } catch {
            release()
            throw error
        }
    }
}

/// Heading in degrees, clockwise from north, of body axis `axis` under attitude `q`
/// (body → ENU); the simulated field points to +y (north) and down.
func truthHeading(_ q: Quaternion, axis: Vector3 = .unitY) -> Double {
    let v = q.rotate(axis)
    return Angle.normalized360(atan2(v.x, v.y) * Angle.degreesPerRadian)
}

/// Unix seconds of a heading's `time` (ISO 8601).
func unixTime(_ heading: [String: Any]) -> Double? {
    (heading["time"] as? String).flatMap(WallClockTime.parse)
}
