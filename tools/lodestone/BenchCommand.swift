enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Measure the speed of the pipeline (build with -c release)."
    static let usage = "bench [options]"
    static let discussion = ""
    static let options: [CommandLineArguments.Option] = []
    static func run(_ arguments: CommandLineArguments) throws -> ExitCode { .success }
}
