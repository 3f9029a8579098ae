import LodestoneCore

/// The heading-pipeline options shared by `replay`, `watch` and `serve`.
struct PipelineOptions {
    static let options: [CommandLineArguments.Option] = [
        .value("heading-filter", "DEG", "Deliver a heading only after it moved this many degrees (default 1; 0 = every sample)."),
        .value("forward", "AXIS", "Body axis whose heading is reported: +y (default), +x, -y, -x."),
        .flag("no-smoothing", "Report the per-sample heading without smoothing (compass mode)."),
        .value("fusion", "MODE", "auto (default: gyro fusion when the log has a gyroscope), ecompass or ahrs."),
    ]

    var estimator = HeadingEstimator.Settings()
    var headingFilter = 1.0

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        if let f = try arguments.double("heading-filter") {
            guard f >= 0 else { throw UsageError("--heading-filter must be ≥ 0 degrees, got \(f)") }
            headingFilter = f
        }
        if let text = arguments.string("forward") {
            guard let axis = ForwardAxis(argument: text) else {
                throw UsageError("--forward must be one of +y, +x, -y, -x; got '\(text)'")
            }
            estimator.forwardAxis = axis
        }
        if arguments.flag("no-smoothing") { estimator.smoothing = nil }
        if let text = arguments.string("fusion") {
            guard let mode = FusionMode(rawValue: text) else {
                throw UsageError("--fusion must be auto, ecompass or ahrs; got '\(text)'")
            }
            estimator.fusion = mode
        }
    }

    func makePipeline() -> HeadingPipeline {
        HeadingPipeline(settings: estimator, headingFilter: headingFilter)
    }
}
