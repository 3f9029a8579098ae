#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Timing of model evaluation and of coefficient loading, for `lodestone bench`.
///
/// Points are pseudo-random but fixed (a SplitMix64 stream from `seed`), drawn
/// over the whole validity domain: latitude −90…90°, longitude −180…180°,
/// height −1…850 km, date 2025.0–2030.0. Run it from a release build: debug
/// builds are ~50× slower and say nothing about the target.
public enum GeomagneticBenchmark {
    public struct Result: Sendable, CustomStringConvertible {
        public var model: String
        public var points: Int
        /// Wall-clock time per full evaluation (all elements and rates), ns.
        public var nanosecondsPerPoint: Double
        /// CPU time of the calling thread per evaluation, ns. On a shared
        /// machine this is the steadier number: it leaves out time the
        /// thread spent waiting for a core.
        public var cpuNanosecondsPerPoint: Double
        /// Sum of the declinations computed; printed so the work cannot be optimised away.
        public var checksum: Double

        public var description: String {
            "\(model): \(points) points, \(rounded(nanosecondsPerPoint)) ns/point wall, \(rounded(cpuNanosecondsPerPoint)) ns/point CPU (checksum \(checksum))"
        }
    }

    /// Evaluates `points` points (after a short warm-up) and reports ns per point.
    public static func run(model: GeomagneticModel, points: Int = 100_000, seed: UInt64 = 1) -> Result {
        let inputs = samplePoints(count: max(points, 1), seed: seed, validity: model.validity)
        // Warm-up: brings the coefficient table into cache.
        for p in inputs.prefix(100) {
            _ = try? model.elements(latitude: p.0, longitude: p.1, height: p.2, decimalYear: p.3)
        }
        var checksum = 0.0
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUNanoseconds()
        for p in inputs {
            // Inputs are inside the validity domain, so this never throws.
            checksum += (try? model.elements(latitude: p.0, longitude: p.1, height: p.2, decimalYear: p.3))?
                .declination ?? .nan
        }
        let cpu = threadCPUNanoseconds() - cpuStart
        let elapsed = clock.now - start
        return Result(model: model.name, points: inputs.count,
                      nanosecondsPerPoint: nanoseconds(elapsed) / Double(inputs.count),
                      cpuNanosecondsPerPoint: cpu / Double(inputs.count), checksum: checksum)
    }

    /// Time to build a model from its bundled coefficients (parse the
    /// payload, lay out the recursion table): the cost of first use of
    /// `.wmm2025` / `.wmmhr2025`, measured on a fresh copy each time.
    /// Returns the fastest of `repetitions` runs, in nanoseconds.
    public static func coefficientLoadNanoseconds(highResolution: Bool, repetitions: Int = 5) -> Double {
        var best = Double.infinity
        for _ in 0..<max(repetitions, 1) {
            let clock = ContinuousClock()
            let start = clock.now
            let model = highResolution
                ? GeomagneticModel(.wmmhr2025, errorModel: .wmmhr2025)
                : GeomagneticModel(.wmm2025, errorModel: .wmm2025)
            let elapsed = clock.now - start
            precondition(model.table.terms.count > 0)
            best = min(best, nanoseconds(elapsed))
        }
        return best
    }

    static func threadCPUNanoseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
    }

    static func rounded(_ x: Double) -> Double { (x * 10).rounded() / 10 }

    static func nanoseconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1e9 + Double(c.attoseconds) * 1e-9
    }

    /// Fixed pseudo-random points (lat, lon, height km, decimal year).
    static func samplePoints(count: Int, seed: UInt64, validity: ClosedRange<Double>)
        -> [(Double, Double, Double, Double)] {
        var state = seed
        func next() -> Double {
            // SplitMix64, top 53 bits to [0, 1).
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1p-53
        }
        let span = validity.upperBound - validity.lowerBound
        return (0..<count).map { _ in
            (-90 + 180 * next(), -180 + 360 * next(), -1 + 851 * next(), validity.lowerBound + span * next())
        }
    }
}
