// The heading daemon on its own: what `lodestone serve` runs (see ServeCommandLine for why
// it is a separate executable). Arguments are those after `lodestone serve`.
#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine
import LodestoneCore
import LodestoneService
import LodestoneSession

/// Runs the service with `arguments`; returns the exit code, from the table of every
/// command (``ExitCode``).
func serve(_ arguments: [String]) -> ExitCode {
    let log = ServiceLog(threshold: arguments.contains("-v") || arguments.contains("--verbose") ? .debug : .info)
    if arguments.contains("--help") || arguments.contains("-h") {
        print(ServeCommandLine.helpText, terminator: "")
        return .success
    }
    let parsed: CommandLineArguments
    let configuration: ServiceConfiguration
    do {
        parsed = try CommandLineArguments(arguments, options: ServeCommandLine.options)
        _ = try parsed.positionals(required: 0, "")
        configuration = try ServeCommandLine.configuration(parsed)
    } catch let e as UsageError {
        log.error("serve: \(e)\nTry 'lodestone help serve'.")
        return .usage
    } catch let e as ConfigurationError {
        log.error(e.description)
        return e.isAccessProblem ? .inaccessible : .badInput
    } catch {
        log.error("\(error)")
        return .badInput
    }
    if case .simulated = configuration.heading.source {
        log.notice("the source is a SIMULATED board (demo motion), not a sensor")
    }
    // Without a config file a reload reads the same flags again: the calibration profiles are re-read.
    let reload: HeadingService.Reload = { try ServeCommandLine.configuration(parsed) }
    let service: HeadingService
    do {
        service = try HeadingService(configuration: configuration, release: LodestoneRelease.version, log: log, reload: reload)
    } catch {
        var text = error.description
        if case .iio = configuration.heading.source, parsed.string("source") == nil, parsed.string("config") == nil {
            text += " (No IIO sensors here? '--source simulated' serves a simulated board for a demo.)"
        }
        log.error(text)
        return ExitCode(error.kind)
    }
    switch service.run() {
    case .stopped(let signal): return signal == SIGINT ? .interrupted : .success
    case .sourceEnded: return .success
    case .failed(let error): return ExitCode(error.kind)
    }
}

exit(serve(Array(CommandLine.arguments.dropFirst())).rawValue)
