import Foundation
import LodestoneTestSupport
import Testing

/// `lodestone bench` runs the whole pipeline on every sample, in both modes, and
/// replays a CSV with gyroscope columns; the figures themselves belong to a
/// release build (docs/benchmarks.md), not to a test.
@Suite struct BenchCommandTests {
    let scratch = TemporaryDirectory()

    @Test func pipelineAndReplayRunOnEverySample() throws {
        let r = try CommandRunner.run(["bench", "--only", "pipeline,replay", "--samples", "2000", "--directory", scratch.path("")])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.lines
        // Gyro fusion reports nothing while the start levels (0.2 s, 20 of the 2000 samples at 100 Hz).
        #expect(lines.contains { $0.hasPrefix("pipeline, AHRS, headingFilter 0") && $0.contains("ns/sample  (99.0% completed") })
        #expect(lines.contains { $0.hasPrefix("pipeline, compass, headingFilter 0") && $0.contains("100.0% completed") })
        #expect(lines.contains { $0.hasPrefix("lodestone replay, 2000 samples") && $0.contains("M samples/s") })
        #expect(lines.contains { $0.hasPrefix("lodestone replay, 8000 samples") })
    }

    @Test func unknownBenchmarksAreRefused() throws {
        let r = try CommandRunner.run(["bench", "--only", "core"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown benchmark 'core'; use calibration, geomag, iio, pipeline, place, replay, serve"), "\(r.stderr)")
    }
}
