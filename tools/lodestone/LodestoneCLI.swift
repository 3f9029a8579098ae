#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneLogs
import LodestoneSession

@main
enum LodestoneCLI {
    /// Every subcommand, in the order `lodestone --help` lists them.
    static let commands: [any Command.Type] = [
        ReplayCommand.self,
        WatchCommand.self,
        RecordCommand.self,
        DevicesCommand.self,
        CalibrateCommand.self,
        SimulateCommand.self,
        SimulatedBoardCommand.self,
        FieldCommand.self,
        EvaluateCommand.self,
        ServeCommand.self,
        LocateCommand.self,
        TrackCommand.self,
        RegionsCommand.self,
        PlaceCommand.self,
        BearingCommand.self,
        BenchCommand.self,
    ]

    static let version = "0.1.0"

    static func mainHelp() -> String {
        var text = """
            lodestone \(version) — tilt-compensated and true heading for Linux boards

            Usage: lodestone COMMAND [options]
                   lodestone help COMMAND
                   lodestone --version

            Commands:

            """
        let width = (commands.map { $0.name.count }.max() ?? 0) + 4
        for c in commands {
            text += "  " + c.name + String(repeating: " ", count: width - c.name.count) + c.summary + "\n"
        }
        text += """

            Conventions: body frame x right, y forward, z up; earth frame East-North-Up;
            field in µT, acceleration in m/s², angular rate in rad/s, angles in degrees.

            Exit codes: 0 success, 1 bad input data, 2 usage error, 3 file or device not
            accessible, 4 sensor or service failure, 130 interrupted.

            """
        return text
    }

    static func runMain() -> ExitCode {
        var args = Array(CommandLine.arguments.dropFirst())
        guard let first = args.first else {
            Console.note(mainHelp())
            return .usage
        }
        switch first {
        case "--help", "-h":
            print(mainHelp(), terminator: "")
            return .success
        case "--version", "version":
            print("lodestone \(version)")
            return .success
        case "help":
            guard args.count > 1 else {
                print(mainHelp(), terminator: "")
                return .success
            }
            guard let c = commands.first(where: { $0.name == args[1] }) else {
                Console.error("unknown command '\(args[1])'; see 'lodestone --help'")
                return .usage
            }
            print(c.helpText, terminator: "")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Console.error("unknown command '\(first)'; see 'lodestone --help'")
            return .usage
        }
        args.removeFirst()
        if args.contains("--help") || args.contains("-h") {
            print(command.helpText, terminator: "")
            return .success
        }
        do {
            let parsed = try CommandLineArguments(args, options: command.options)
            return try command.run(parsed)
        } catch let e as UsageError {
            Console.error("\(command.name): \(e)\nTry 'lodestone help \(command.name)'.")
            return .usage
        } catch let e as LogError {
            Console.error(e.description)
            return e.exitCode
        } catch let e as CalibrationFileError {
            Console.error(e.description)
            return e.isAccessProblem ? .inaccessible : .badInput
        } catch let e as SessionError {
            Console.error(e.kind == .usage ? "\(command.name): \(e)" : e.description)
            return ExitCode(e.kind)
        } catch let e as CommandFailure {
            Console.error(e.description)
            return e.exitCode
        } catch {
            Console.error("\(error)")
            return .failure
        }
    }

    static func main() {
        exit(runMain().rawValue)
    }
}
