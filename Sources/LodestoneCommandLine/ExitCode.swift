/// The exit codes of `lodestone` and `lodestone-serve`: one table for every command,
/// printed by `lodestone --help` and documented in the README.
public enum ExitCode: Int32, CaseIterable, Sendable {
    /// Done; also a live command or the service stopped by SIGTERM, and the end of a replay.
    case success = 0
    /// Bad input data: a malformed log, calibration profile or config file; a calibration
    /// rejected or poor.
    case badInput = 1
    /// The command was called wrongly: an unknown command or option, a bad value.
    case usage = 2
    /// A file, device or socket could not be opened, read or written.
    case inaccessible = 3
    /// A sensor or the service failed while running.
    case failure = 4
    /// Stopped by SIGINT (Ctrl-C).
    case interrupted = 130

    /// One line of the table, as `--help` prints it.
    public var meaning: String {
        switch self {
        case .success: return "success (also stopped by SIGTERM, or a replay's end)"
        case .badInput: return "bad input data: a log, calibration profile or config file"
        case .usage: return "usage error: unknown command or option, bad value"
        case .inaccessible: return "a file, device or socket cannot be opened, read or written"
        case .failure: return "a sensor or the service failed while running"
        case .interrupted: return "interrupted (SIGINT)"
        }
    }

    /// The whole table, one code a line, indented by `indent` spaces.
    public static func table(indent: Int = 2) -> String {
        let pad = String(repeating: " ", count: indent)
        return allCases.map { code in
            let number = String(code.rawValue)
            return pad + number + String(repeating: " ", count: 5 - number.count) + code.meaning
        }.joined(separator: "\n")
    }
}
