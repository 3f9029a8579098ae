import Foundation

/// Runs GeographicLib's `GeodSolve` (Debian geographiclib-tools) as a reference.
///
/// All queries go through one process: write them to a file, feed it on stdin,
/// read every answer. (Writing to a pipe while GeodSolve's output pipe fills
/// would deadlock.)
public enum GeodSolveProcess {
    /// The `GeodSolve` executable on PATH, or nil.
    public static let executable: URL? = onPath("GeodSolve")

    /// The executable `name` on PATH, or nil.
    public static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Output lines of `GeodSolve arguments` for the given input lines, one per input line.
    public static func run(_ executable: URL, arguments: [String], lines: [String]) throws -> [String] {
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("lodestone-geodsolve-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable.path) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(errorText)")
        }
        let result = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
        guard result.count == lines.count else {
            throw Failure(description: "GeodSolve answered \(result.count) lines for \(lines.count) queries: \(errorText)")
        }
        return result
    }
}
