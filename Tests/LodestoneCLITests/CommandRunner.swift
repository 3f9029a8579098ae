import Foundation

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
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks.
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
}

/// A fresh temporary directory, removed when dropped.
final class Scratch {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lodestone-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String, _ contents: String) -> String {
        let path = url.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
