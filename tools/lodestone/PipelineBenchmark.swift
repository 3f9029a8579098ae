import LodestoneCore

/// `bench --only pipeline`: the whole per-sample path, every sample completed.
enum PipelineBenchmark {
    static func run(count: Int) {
        let samples = BenchInput.samples(count)
        for (label, mode) in [("pipeline, AHRS, headingFilter 0", FusionMode.ahrs),
                              ("pipeline, compass, headingFilter 0", .ecompass)] {
            var settings = BenchInput.settings
            settings.fusion = mode
            var best = Double.infinity, delivered = 0
            for _ in 0..<5 {
                var pipeline = HeadingPipeline(settings: settings, headingFilter: 0, declination: Declination(degrees: 4.3))
                var checksum = 0.0, events = 0
                delivered = 0
                let t0 = BenchCommand.now()
                for s in samples {
                    if let h = pipeline.process(s) {
                        delivered += 1
                        checksum += h.magneticHeading + h.headingAccuracy + h.attitude.w + (h.trueHeading ?? 0)
                    }
                    if pipeline.hasEvents { events += pipeline.takeEvents().count }
                }
                best = min(best, (BenchCommand.now() - t0) / Double(count))
                BenchCommand.blackHole(checksum + Double(events))
            }
            print(BenchCommand.pad(label) + BenchCommand.format(best * 1e9, 1) + " ns/sample  ("
                  + BenchCommand.percent(delivered, count) + " completed; best of 5)")
        }
    }
}
