// The heading daemon on its own: what `lodestone serve` runs (see ServeCommandLine for why
// it is a separate executable). Arguments are those after `lodestone serve`.
#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine
import LodestoneService

/// Runs the service with `arguments`; returns the exit code (the table of every
/// command): 0 stopped by SIGTERM or the end of a replay, 1 bad config/profile/log,
/// 2 bad flags, 3 a socket/file/device that cannot be opened, 4 a sensor failure,
/// 130 SIGINT.
func serve(_ arguments: [String]) -> Int32 {
    let log = ServiceLog(threshold: arguments.contains("-v") || arguments.contains("--verbose") ? .debug : .info)
    if arguments.contains("--help") || arguments.contains("-h") {
        print(ServeCommandLine.helpText, terminator: "")
        return 0
    }
    let parsed: CommandLineArguments
    let configuration: ServiceConfiguration
    do {
        parsed = try CommandLineArguments(arguments, options: ServeCommandLine.options)
        _ = try parsed.positionals(required: 0, "")
        configuration = try ServeCommandLine.configuration(parsed)
    } catch let e as UsageError {
        log.error("serve: \(e)\nTry 'lodestone help serve'.")
        return 2
    } catch let e as ServiceError {
        log.error(e.description)
        return exitCode(e.kind)
    } catch {
        log.error("\(error)")
        return 1
    }
    if case .simulated = configuration.heading.source {
        log.notice("the source is a SIMULATED board (demo motion), not a sensor")
    }
    // Without a config file a reload reads the same flags again: the calibration profiles are re-read.
    let reload: HeadingService.Reload = { try ServeCommandLine.configuration(parsed) }
    let service: HeadingService
    do {
        service = try HeadingService(configuration: configuration, release: ServeCommandLine.release, log: log, reload: reload)
    } catch {
        var text = error.description
        if case .iio = configuration.heading.source, parsed.string("source") == nil, parsed.string("config") == nil {
            text += " (No IIO sensors here? '--source simulated' serves a simulated board for a demo.)"
        }
        log.error(text)
        return exitCode(error.kind)
    }
    switch service.run() {
    case .stopped(let signal): return signal == SIGINT ? 130 : 0
    case .sourceEnded: return 0
    case .failed(let error): return exitCode(error.kind)
    }
}

func exitCode(_ kind: ServiceError.Kind) -> Int32 {
    switch kind {
    case .badInput: return 1
    case .usage: return 2
    case .inaccessible: return 3
    case .failure: return 4
    }
}

exit(serve(Array(CommandLine.arguments.dropFirst())))
