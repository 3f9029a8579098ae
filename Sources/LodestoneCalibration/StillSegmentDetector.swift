import LodestoneCore

/// A stretch of a log during which the device did not move.
public struct StillSegment: Hashable, Sendable {
    /// First and last sample index (inclusive) in the input arrays.
    public var indices: ClosedRange<Int>
    public var startTime: Double
    public var endTime: Double
    /// Mean acceleration over the segment (the still position's reading).
    public var meanAcceleration: Vector3
    /// Per-axis standard deviation of the acceleration over the segment.
    public var standardDeviation: Vector3

    public var duration: Double { endTime - startTime }
    public var sampleCount: Int { indices.count }
}

/// Finds still segments in an accelerometer log, for a multi-position calibration.
///
/// A sample is still when every axis of the acceleration has a standard
/// deviation of at most `maximumDeviation` over the `window` of time centred
/// on it and, when angular rates are given, the rate is at most
/// `maximumAngularRate`. Runs of still samples lasting `minimumDuration` or
/// more become segments.
public struct StillSegmentDetector: Hashable, Sendable {
    /// Seconds.
    public var window: Double
    /// m/s² (per-axis standard deviation).
    public var maximumDeviation: Double
    /// rad/s.
    public var maximumAngularRate: Double
    /// Seconds.
    public var minimumDuration: Double

    /// 0.5 s windows, 0.05 m/s² (≈ 5 mg, a few times MEMS noise), 0.05 rad/s, 1 s.
    public init(window: Double = 0.5, maximumDeviation: Double = 0.05, maximumAngularRate: Double = 0.05,
                minimumDuration: Double = 1.0) {
        self.window = window
        self.maximumDeviation = maximumDeviation
        self.maximumAngularRate = maximumAngularRate
        self.minimumDuration = minimumDuration
    }

    /// `times` must be non-decreasing, one per acceleration; `angularRates`,
    /// when given, must have the same count (otherwise it is ignored).
    public func segments(times: [Double], accelerations: [Vector3], angularRates: [Vector3]? = nil) -> [StillSegment] {
        let n = min(times.count, accelerations.count)
        guard n > 0 else { return [] }
        let rates = angularRates?.count == n ? angularRates : nil
        // Prefix sums of a and a² per axis, centred on the first sample to
        // keep E[a²] − E[a]² free of cancellation.
        let origin = accelerations[0]
        var sum = [Vector3](repeating: .zero, count: n + 1)
        var sumSq = [Vector3](repeating: .zero, count: n + 1)
        for i in 0..<n {
            let a = accelerations[i] - origin
            sum[i + 1] = sum[i] + a
            sumSq[i + 1] = sumSq[i] + Vector3(a.x * a.x, a.y * a.y, a.z * a.z)
        }
        func deviation(_ lo: Int, _ hi: Int) -> Vector3 {  // samples lo..<hi
            let count = Double(hi - lo)
            let m = (sum[hi] - sum[lo]) / count
            let sq = (sumSq[hi] - sumSq[lo]) / count
            return Vector3(max(sq.x - m.x * m.x, 0).squareRoot(), max(sq.y - m.y * m.y, 0).squareRoot(),
                           max(sq.z - m.z * m.z, 0).squareRoot())
        }
        var still = [Bool](repeating: false, count: n)
        var lo = 0, hi = 0
        let half = window / 2
        for i in 0..<n {
            while times[lo] < times[i] - half { lo += 1 }
            while hi < n && times[hi] <= times[i] + half { hi += 1 }
            let d = deviation(lo, hi)
            var quiet = hi - lo >= 2 && max(d.x, d.y, d.z) <= maximumDeviation
            if let rates { quiet = quiet && rates[i].length <= maximumAngularRate }
            still[i] = quiet && accelerations[i].isFinite
        }
        var out: [StillSegment] = []
        var i = 0
        while i < n {
            guard still[i] else {
                i += 1
                continue
            }
            var j = i
            while j + 1 < n && still[j + 1] { j += 1 }
            if times[j] - times[i] >= minimumDuration {
                let d = deviation(i, j + 1)
                let mean = (sum[j + 1] - sum[i]) / Double(j + 1 - i) + origin
                out.append(StillSegment(indices: i...j, startTime: times[i], endTime: times[j],
                                        meanAcceleration: mean, standardDeviation: d))
            }
            i = j + 1
        }
        return out
    }
}
