import Foundation
import LodestoneTestSupport

/// Runs the built `lodestone` executable and captures what it prints.
struct CommandRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// Heading lines (JSON objects without an `event` key).
        var headings: [[String: Any]] { objects.filter { $0["event"] == nil } }

        /// Event lines (JSON objects with an `event` key).
        var events: [[String: Any]] { objects.filter { $0["event"] != nil } }

        /// The stdout lines parsed as JSON objects.
        var objects: [[String: Any]] {
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// `.build/<config>/lodestone`, beside the test bundle.
    static let executable: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var dir = bundle
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("lodestone")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("lodestone")
    }()

    static func run(_ arguments: [String], stdin: String? = nil, currentDirectory: URL? = nil) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        BrokenPipes.ignored
        try p.run()
        // A child that exits before reading (a refused option) closes the pipe:
        // that is its answer, not an error here.
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        return collect(p, out: out, err: err)
    }

    /// Reads a started process's two pipes to the end (both at once, so a chatty
    /// child never blocks) and waits for it.
    static func collect(_ p: Process, out: Pipe, err: Pipe) -> Result {
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `lodestone ARGS` with file writes slowed down (16 bytes per
    /// `LODESTONE_TEST_WRITE_PAUSE` seconds) and sends it SIGKILL after `killAfter`
    /// seconds (nil: lets it finish). Returns how long it ran and whether it was killed.
    static func runKilled(_ arguments: [String], writePause: Double = 0.004, killAfter: Double?) throws -> (seconds: Double, killed: Bool) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(["LODESTONE_TEST_WRITE_PAUSE": "\(writePause)"]) { $1 }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let start = Stopwatch()
        try p.run()
        var killed = false
        if let killAfter {
            while p.isRunning && start.seconds < killAfter { usleep(500) }
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                killed = true
            }
        }
        p.waitUntilExit()
        return (start.seconds, killed)
    }
}
