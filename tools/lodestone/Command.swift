import LodestoneCommandLine
import LodestoneSession

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

/// An error that already knows its exit code and message.
struct CommandFailure: Error, CustomStringConvertible {
    let exitCode: ExitCode
    let description: String

    init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        description = message
    }

    /// A session's problem (a log, a profile, a device), with the exit code of its kind.
    init(_ error: SessionError) {
        self.init(ExitCode(error.kind), error.description)
    }
}

extension Command {
    static var helpText: String {
        CommandHelp.text(usage: usage, summary: summary, discussion: discussion, options: options)
    }
}
