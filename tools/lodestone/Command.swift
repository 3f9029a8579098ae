import LodestoneLogs

/// One `lodestone` subcommand: its help text, its options, and what it does.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    /// Usage line after `lodestone`, e.g. `replay FILE [options]`.
    static var usage: String { get }
    /// Paragraphs shown by `lodestone help COMMAND` after the usage line.
    static var discussion: String { get }
    static var options: [CommandLineArguments.Option] { get }
    static func run(_ arguments: CommandLineArguments) throws -> ExitCode
}

/// Exit codes, documented in the README.
enum ExitCode: Int32 {
    case success = 0
    /// Bad input data: a malformed log, profile or config.
    case badInput = 1
    /// The command was called wrongly.
    case usage = 2
    /// A file or device could not be opened, read or written.
    case inaccessible = 3
    /// A sensor or service failed at run time.
    case failure = 4
    /// Stopped by SIGINT.
    case interrupted = 130
}

/// An error that already knows its exit code and message.
struct CommandFailure: Error, CustomStringConvertible {
    let exitCode: ExitCode
    let description: String

    init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        description = message
    }
}

extension LogError {
    var exitCode: ExitCode {
        switch kind {
        case .cannotOpen, .writeFailed: return .inaccessible
        default: return .badInput
        }
    }
}

extension Command {
    static var helpText: String {
        var text = "Usage: lodestone \(usage)\n\n\(summary)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options + [.flag("help", short: "h", "Show this help.")]
        text += "\nOptions:\n"
        let labels = all.map { o -> String in
            let short = o.short.map { "-\($0), " } ?? "    "
            return "  \(short)--\(o.name)" + (o.valueName.map { " \($0)" } ?? "")
        }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (label, o) in zip(labels, all) {
            let pad = label.count < width ? String(repeating: " ", count: width - label.count) : "\n" + String(repeating: " ", count: width)
            text += label + pad + o.help + "\n"
        }
        return text
    }
}
