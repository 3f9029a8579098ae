#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// `bench --only replay`: `lodestone replay --heading-filter 0` on CSVs with gyroscope columns.
enum ReplayBenchmark {
    static func run(samples: Int, directory: String) throws {
        let path = directory + "/lodestone-bench-\(samples).csv"
        let big = directory + "/lodestone-bench-\(samples * 4).csv"
        try BenchInput.writeCSV(path, samples: samples)
        defer { unlink(path) }
        // In-process: parsing + the heading session (what `replay` runs) + NDJSON encoding (written to /dev/null).
        var best = Double.infinity
        for _ in 0..<3 {
            let t0 = BenchCommand.now()
            let reader = try LogReader(path: path)
            let settings = HeadingSession.Settings(headingFilter: 0, calibration: .none)
            var lines = HeadingLines(session: HeadingSession(settings: settings, calibration: SessionCalibration()))
            lines.start(wallClockStart: nil)
            let json = JSONLineBuilder()
            let sink = OutputStream(fd: open("/dev/null", O_WRONLY))
            while let s = try reader.nextSample() {
                _ = lines.append(s, to: json)
                if json.bytes.count > 1 << 15 {
                    sink.write(json.bytes)
                    json.removeAll()
                }
            }
            sink.write(json.bytes)
            sink.flush()
            close(sink.fd)
            best = min(best, BenchCommand.now() - t0)
        }
        print(BenchCommand.pad("replay in-process, \(samples) samples") + BenchCommand.format(Double(samples) / best / 1e6, 2)
              + " M samples/s  (best of 3)")
        let arguments = ["replay", "--heading-filter", "0", "--calibration", "none"]
        let small = try BenchCommand.spawn(arguments + [path])
        print(BenchCommand.pad("lodestone replay, \(samples) samples") + BenchCommand.format(Double(samples) / small.seconds / 1e6, 2)
              + " M samples/s, peak RSS " + BenchCommand.format(small.peakRSS, 1) + " MB")
        try BenchInput.writeCSV(big, samples: samples * 4)
        defer { unlink(big) }
        let large = try BenchCommand.spawn(arguments + [big])
        print(BenchCommand.pad("lodestone replay, \(samples * 4) samples") + BenchCommand.format(Double(samples * 4) / large.seconds / 1e6, 2)
              + " M samples/s, peak RSS " + BenchCommand.format(large.peakRSS, 1) + " MB")
    }
}
