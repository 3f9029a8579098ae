import LodestoneCommandLine
import LodestoneLogs

/// One `lodestone` subcommand: its help text, its options, and what it does.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    /// Usage line after `lodestone`, e.g. `replay FILE [options]`.
    static var usage: String { get }
    /// Paragraphs shown by `lodestone help COMMAND` after the usage line.
    static var discussion: String { get }
    static var options: [CommandLineOption] { get }
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
        CommandHelp.text(usage: usage, summary: summary, discussion: discussion, options: options)
    }
}
