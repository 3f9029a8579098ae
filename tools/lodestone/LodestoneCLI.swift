#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
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

    static let version = LodestoneRelease.version

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

            Exit codes (every command):

            """
        return text + ExitCode.table() + "\n"
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
            guard let c = command(named: args[1]) else { return .usage }
            print(c.helpText, terminator: "")
            return .success
        default:
            break
        }
        guard let command = command(named: first) else { return .usage }
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
            return ExitCode(SessionError(e).kind)
        } catch let e as CalibrationFileError {
            Console.error(e.description)
            return ExitCode(SessionError(e).kind)
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

    /// The command called `name`; nil, after saying so (with the nearest name), when there is none.
    static func command(named name: String) -> (any Command.Type)? {
        if let c = commands.first(where: { $0.name == name }) { return c }
        let guess = ClosestName.closest(to: name, among: commands.map { $0.name }).map { "; did you mean '\($0)'?" } ?? ""
        Console.error("unknown command '\(name)'\(guess)\nSee 'lodestone --help' for the commands.")
        return nil
    }

    static func main() {
        exit(runMain().rawValue)
    }
}
