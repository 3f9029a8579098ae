#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine
import LodestoneService

/// `lodestone serve`: the heading daemon.
///
/// This executable links full Foundation (other commands use it), which would cost the
/// daemon several MB of resident memory (docs/service.md); so `serve` replaces this process (exec, same PID, so
/// systemd's Type=notify still sees it) with the lean `lodestone-serve` built and
/// installed beside it.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = ServeCommandLine.summary
    static let usage = ServeCommandLine.usage
    static let discussion = ServeCommandLine.discussion
    static let options = ServeCommandLine.options

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        // `lodestone serve ARGS`: the command is always the first argument.
        let raw = Array(CommandLine.arguments.dropFirst(2))
        guard let lean = leanExecutable() else {
            throw CommandFailure(.inaccessible, "lodestone-serve, the service's executable, is not beside this one; build it (swift build) or install both")
        }
        var argv = ([lean] + raw).map { strdup($0) } + [nil]
        execv(lean, &argv)
        throw CommandFailure(.inaccessible, "cannot start \(lean): \(String(cString: strerror(errno)))")
    }

    /// `lodestone-serve` in the directory of this executable, if it is there.
    static func leanExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        let candidate = String(exe[..<slash]) + "/lodestone-serve"
        return access(candidate, X_OK) == 0 ? candidate : nil
    }
}
