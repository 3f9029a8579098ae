#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibration
import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneLocation
import LodestoneLogs
import LodestoneSimulation

/// `lodestone bench`: speed of the pipeline and of replay, measured here and now.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "Measure pipeline speed, replay throughput and memory (use a release build)."
    static let usage = "bench [options]"
    static let discussion = """
        The pipeline and replay figures run on what a board on a vehicle sees: a
        simulated car drive at 100 Hz with rests (parked, stops at lights), braking and
        curves (linear and centripetal acceleration), road vibration, a 0.3 °/s gyro bias
        with its walk, typical noise, and a hard and soft iron the calibration undoes.
        pipeline  ns per sample of the whole per-sample path a user pays for, with
                headingFilter 0 so every sample is completed (in AHRS mode, all after
                the start's first 0.2 s): calibration, gyro fusion (AHRS) or smoothing
                (compass), the magnetic environment monitor, heading
                angle, headingAccuracy, attitude and true heading (HeadingPipeline.process),
                on 1 M samples; in AHRS mode and in compass mode.
        replay  samples per second of 'lodestone replay FILE --heading-filter 0' (CSV
                parsing, the pipeline in AHRS mode, NDJSON of every sample to /dev/null)
                on a generated 1 M-sample CSV with gyroscope columns, in-process and as a
                process; and the peak RSS of the process on 1 M and 4 M samples (it must
                not grow with the file).
        geomag  ns per point of WMM2025 and WMMHR2025 (all elements and rates), the cost of
                loading the coefficients, and the time from process start to the first
                'lodestone field' result.
        place   the offline geocoder (bundled GeoNames, 155 k places): loading the table,
                building the nearest-place tree and the name list, µs per nearest-place
                lookup (over the whole sphere, and near places) and per full reverse lookup,
                a 3-letter prefix search, and the time from process start to the first
                'lodestone place' answer (what a user waits for, load included).
        calibration  ms per magnetometer calibration fit (CalibrationFitter: model choice,
                ellipsoid fit, checks, coverage) of 1,000 and 10,000 noisy samples of a
                distorted full sphere, and per live refit (MagnetometerCalibrator, ≤ 1,000
                kept samples). Target: ≤ 5 ms for 10,000 samples.
        iio     (not in the default set; root) CPU per sample and % of one core of
                'lodestone watch --mode buffered --heading-filter 0' on a simulated
                LIS3MDL + LIS3DH board, at each of --rates for --seconds; then its
                RSS every minute for --minutes at 100 Hz (0 skips that part).
        serve   (not in the default set) 'lodestone serve' replaying a generated 100 Hz
                log paced in real time: its CPU (% of one core, all threads) idle and with 1 and 10 clients,
                resident memory, sample-to-client latency p50/p99, and ?WATCH to first
                HEADING after the sensors were released. About 2 minutes.
        stalled (not in the default set) 'lodestone serve' at 1000 Hz with 31 clients that
                never read, each with the largest queue the configuration allows (64 MiB,
                filled first), and one healthy client: the share of the headings it gets,
                its latency p50/p99, the daemon's CPU; the same without the stalled clients
                first. Needs about 2.5 GB of memory and a few minutes.
        Build first with: swift build -c release
        """
    static let options: [CommandLineOption] = [
        .value("only", "NAMES", "Comma-separated subset: pipeline, replay, geomag, place, calibration, iio, serve, stalled (iio, serve and stalled are not in the default set)."),
        .value("rates", "HZ,…", "iio: requested rates (default 100,1600: the LIS3DH offers 400 and 1600, not 1000)."),
        .value("seconds", "S", "iio: how long to measure each rate (default 20)."),
        .value("minutes", "N", "iio: how long to watch the memory at 100 Hz (default 1)."),
        .value("window", "S", "serve: seconds per measurement (default 20)."),
        .value("samples", "N", "Samples per benchmark (default 1000000)."),
        .value("directory", "DIR", "Where to write the generated logs (default /tmp)."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let only = Set((arguments.string("only") ?? "pipeline,replay,geomag,place,calibration").split(separator: ",").map(String.init))
        let known: Set<String> = ["pipeline", "replay", "geomag", "place", "calibration", "iio", "serve", "stalled"]
        if let unknown = only.subtracting(known).sorted().first {
            throw UsageError("--only: unknown benchmark '\(unknown)'; use \(known.sorted().joined(separator: ", "))")
        }
        let samples = try arguments.integer("samples", minimum: 1000) ?? 1_000_000
        let directory = arguments.string("directory") ?? "/tmp"
        #if DEBUG
        Console.error("warning: this is a debug build; figures are meaningless. Run: swift build -c release && .build/release/lodestone bench")
        #endif
        print("lodestone bench — \(hostDescription())")
        if only.contains("pipeline") { PipelineBenchmark.run(count: min(samples, 1_000_000)) }
        if only.contains("replay") { try ReplayBenchmark.run(samples: samples, directory: directory) }
        if only.contains("geomag") { try benchGeomagnetism() }
        if only.contains("place") { try benchPlaces() }
        if only.contains("calibration") { try benchCalibration() }
        if only.contains("iio") {
            let rates = try (arguments.string("rates") ?? "100,1600").split(separator: ",").map { text throws(UsageError) -> Double in
                guard let r = Double(text), r > 0 else { throw UsageError("--rates needs comma-separated rates in Hz, got '\(text)'") }
                return r
            }
            try IIOBenchmark.run(rates: rates, seconds: try arguments.double("seconds", in: 1...3600) ?? 20,
                                 minutes: try arguments.double("minutes", in: 0...1440) ?? 1)
        }
        if only.contains("serve") { try ServeBenchmark.run(seconds: try arguments.double("window") ?? 20) }
        if only.contains("stalled") { try StalledClientsBenchmark.run(seconds: try arguments.double("window") ?? 20) }
        return .success
    }

    static func benchGeomagnetism() throws {
        for (model, points) in [(GeomagneticModel.wmm2025, 200_000), (.wmmhr2025, 5_000)] {
            let r = GeomagneticBenchmark.run(model: model, points: points)
            print(pad("\(model.name) evaluation") + format(r.nanosecondsPerPoint / 1000, 3) + " µs/point wall, "
                  + format(r.cpuNanosecondsPerPoint / 1000, 3) + " µs/point CPU")
        }
        for (label, hr) in [("WMM2025", false), ("WMMHR2025", true)] {
            let ns = GeomagneticBenchmark.coefficientLoadNanoseconds(highResolution: hr)
            print(pad("\(label) coefficient load (warm)") + format(ns / 1e6, 3) + " ms")
        }
        for model in ["wmm", "wmmhr"] {
            var best = Double.infinity
            for _ in 0..<10 {
                best = min(best, try spawn(["field", "--lat", "52.5", "--lon", "13.3", "--year", "2026.5", "--model", model]).seconds)
            }
            print(pad("process start to first field result, \(model)") + format(best * 1000, 1) + " ms  (best of 10)")
        }
    }

    static func benchPlaces() throws {
        let r = try GeocodingBenchmark.run()
        print(pad("place table load (\(r.places) places)") + format(r.tableLoadMilliseconds, 1) + " ms  (best of 3)")
        print(pad("nearest-place tree build") + format(r.indexBuildMilliseconds, 1) + " ms")
        print(pad("name list build (first search)") + format(r.searchBuildMilliseconds, 1) + " ms")
        print(pad("nearest place, anywhere on Earth") + format(r.nearestNanosecondsSphere / 1000, 2) + " µs/lookup")
        print(pad("nearest place, 1–3 km from a place") + format(r.nearestNanosecondsNearPlaces / 1000, 2) + " µs/lookup")
        print(pad("full reverse lookup (strings, geodesic)") + format(r.lookupNanoseconds / 1000, 2) + " µs/lookup  (target ≤ 5)")
        print(pad("prefix search, 3 letters, 10 results") + format(r.prefixSearchMicroseconds, 1) + " µs  (checksum \(r.checksum))")
        var best = Double.infinity
        for _ in 0..<10 { best = min(best, try spawn(["place", "--lat", "47.3769", "--lon", "8.5417"]).seconds) }
        print(pad("process start to first place answer") + format(best * 1000, 1) + " ms  (best of 10)")
    }

    static func benchCalibration() throws {
        // A distorted magnetometer seen in random attitudes: hard iron, symmetric
        // soft iron, 0.5 µT noise (uniform attitudes from a fixed-seed generator).
        var rng = RandomSource(seed: 42)
        let hardIron = Vector3(25, -12, 30)
        let softIron = Matrix3(1.08, 0.03, 0.01, 0.03, 0.94, 0.02, 0.01, 0.02, 1.0)
        let earth = Vector3(0, 20, -44)
        func sample() -> Vector3 {
            let q = Quaternion(w: rng.gaussian(), x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian()).normalized
            let noise = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.5
            return softIron * q.conjugate.rotate(earth) + hardIron + noise
        }
        let fitter = CalibrationFitter(settings: .magnetometer)
        for (count, rounds) in [(1_000, 50), (10_000, 20)] {
            let points = (0..<count).map { _ in sample() }
            var best = Double.infinity
            var model = ""
            for _ in 0..<rounds {
                let t0 = now()
                let fit = try fitter.fit(points, expectedMagnitude: 48.3)
                best = min(best, now() - t0)
                model = fit.model.rawValue
            }
            print(pad("calibration fit, \(count) samples") + format(best * 1000, 3) + " ms  (\(model) model; best of \(rounds))")
        }
        var calibrator = MagnetometerCalibrator(expectedMagnitude: 48.3)
        for _ in 0..<20_000 { calibrator.add(sample()) }
        calibrator.refit()
        var best = Double.infinity
        for _ in 0..<50 {
            let t0 = now()
            calibrator.refit()
            best = min(best, now() - t0)
        }
        print(pad("live refit, \(calibrator.keptCount) kept samples") + format(best * 1000, 3) + " ms  (best of 50)")
    }

    /// Runs `lodestone ARGS > /dev/null` and returns its wall time and peak RSS in MB.
    ///
    /// The peak is the child's own `VmHWM`, polled from /proc while it runs: the
    /// rusage figure would include this (large) parent, whose memory a spawned
    /// child shares until it calls exec.
    static func spawn(_ arguments: [String]) throws -> (seconds: Double, peakRSS: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let args = ["/proc/self/exe"] + arguments
        var argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let t0 = now()
        guard posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, environ) == 0 else {
            throw CommandFailure(.failure, "could not start lodestone \(arguments.joined(separator: " "))")
        }
        var status: Int32 = 0
        var peakKB = 0.0
        while waitpid(pid, &status, WNOHANG) == 0 {
            peakKB = max(peakKB, highWaterMarkKB(pid) ?? 0)
            usleep(2000)
        }
        return (now() - t0, peakKB / 1024)
    }

    /// `VmHWM` of a running process, in kB.
    static func highWaterMarkKB(_ pid: pid_t) -> Double? {
        guard let f = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, f) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmHWM:") {
                return Double(String(text.dropFirst(6).filter(\.isNumber)))
            }
        }
        return nil
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    @inline(never)
    static func blackHole(_ x: Double) {
        if x == -.infinity { print(x) }
    }

    static func hostDescription() -> String {
        var u = utsname()
        uname(&u)
        let machine = withUnsafeBytes(of: &u.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(machine), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs"
    }

    static func pad(_ s: String) -> String {
        s.count >= 46 ? s + " " : s + String(repeating: " ", count: 46 - s.count)
    }

    static func format(_ v: Double, _ decimals: Int) -> String {
        let json = JSONLineBuilder()
        json.appendNumber(v, decimals: decimals)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func percent(_ a: Int, _ b: Int) -> String {
        format(100 * Double(a) / Double(b), 1) + "%"
    }
}
