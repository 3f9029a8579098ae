import Foundation
import LodestoneCore
import LodestoneSimulation
import Testing

/// Runs a case of the scenario battery through the whole pipeline (headingFilter
/// 0, the case's calibration status) in gyro fusion and in compass mode, and
/// scores it as `lodestone evaluate` scores the same case's log: BROAD's
/// heading error over the samples after the settling time, and how often the
/// error lay within ±headingAccuracy or beyond 3 × headingAccuracy among the
/// samples whose accuracy was valid.
struct BatteryRun {
    struct Score: CustomStringConvertible {
        var scored = 0, valid = 0, within = 0, beyond = 0
        var sumSquares = 0.0, accuracySumSquares = 0.0
        var rmse: Double { (sumSquares / Double(max(scored, 1))).squareRoot() }
        /// The root mean square of the valid accuracies, degrees: about the RMSE for a 1σ figure.
        var accuracyRMS: Double { (accuracySumSquares / Double(max(valid, 1))).squareRoot() }
        var withinShare: Double { Double(within) / Double(max(valid, 1)) }
        var beyondShare: Double { Double(beyond) / Double(max(valid, 1)) }
        var description: String {
            "RMSE \(Self.fixed(rmse))°, accuracy RMS \(Self.fixed(accuracyRMS))°, within ±acc \(Self.fixed(100 * withinShare))%, beyond 3×acc \(Self.fixed(100 * beyondShare))%"
        }

        static func fixed(_ x: Double) -> String { String(format: "%.2f", x) }

        mutating func add(error: Double, accuracy: Double) {
            scored += 1
            sumSquares += error * error
            guard accuracy >= 0 else { return }
            valid += 1
            accuracySumSquares += accuracy * accuracy
            if error <= accuracy { within += 1 } else if error > 3 * accuracy { beyond += 1 }
        }
    }

    let battery: BatteryCase
    let samples: [SensorSample]
    let truth: [Quaternion]

    /// `accelerometerLowPass`: the accelerometer read through a two-pole low-pass of
    /// that cutoff, Hz, as a part's digital low-pass filter reads it (``PartLowPass``);
    /// `gyroscopeLowPass` the same for the gyroscope.
    init(_ name: String, accelerometerLowPass: Double? = nil, gyroscopeLowPass: Double? = nil) throws {
        let battery = try #require(SimulationBattery.named(name), "no battery case \(name)")
        self.init(battery, accelerometerLowPass: accelerometerLowPass, gyroscopeLowPass: gyroscopeLowPass)
    }

    /// The same for a case made here, not in the battery.
    init(_ battery: BatteryCase, accelerometerLowPass: Double? = nil, gyroscopeLowPass: Double? = nil) {
        self.battery = battery
        var recording = battery.recording()
        var samples: [SensorSample] = [], truth: [Quaternion] = []
        samples.reserveCapacity(recording.sampleCount)
        truth.reserveCapacity(recording.sampleCount)
        while let s = recording.nextSample() {
            samples.append(s)
            truth.append(recording.truth.kinematics.attitude)
        }
        let times = samples.map(\.time)
        if let cutoff = accelerometerLowPass {
            for (i, a) in PartLowPass.filter(samples.map(\.acceleration), times: times, cutoff: cutoff).enumerated() {
                samples[i].acceleration = a
            }
        }
        if let cutoff = gyroscopeLowPass {
            for (i, w) in PartLowPass.filter(samples.map { $0.angularRate ?? .zero }, times: times, cutoff: cutoff).enumerated() {
                samples[i].angularRate = samples[i].angularRate.map { _ in w }
            }
        }
        self.samples = samples
        self.truth = truth
    }

    /// Scores the samples from the case's settling time on, or from `from` (s) when later.
    func score(_ fusion: FusionMode, from: Double = 0) -> Score {
        var settings = HeadingEstimator.Settings(fusion: fusion)
        settings.calibrationStatus = battery.calibrationStatus
        var pipeline = HeadingPipeline(settings: settings, headingFilter: 0)
        // Compass mode is scored without its smoother's designed lag (``compassLag(at:_:)``).
        let smoother = fusion == .ecompass ? settings.smoothing.map { AdaptiveSmoother(settings: $0) } : nil
        var score = Score()
        var lagged = 0
        let start = max(battery.scenario.settlingTime, from)
        for (i, s) in samples.enumerated() {
            guard let h = pipeline.process(s), s.time >= start else { continue }
            if let smoother {
                lagged = Self.index(samples, atOrBefore: s.time - compassLag(at: i, smoother), from: lagged)
            }
            score.add(error: headingError(h.attitude, truth[smoother == nil ? i : lagged]), accuracy: h.headingAccuracy)
        }
        return score
    }

    /// Compass mode's designed lag at sample `i`, s: its smoother delays a
    /// turn at ω by 1/ω_c (``AdaptiveSmoother/cutoff(atRate:)``). On a slow
    /// turn that lag offsets the calibration residual the compass shares with
    /// the fusion, one way or the other by the sign of the residual: a coin
    /// flip that says nothing of the fusion. So the compass is scored against
    /// the truth of that long ago.
    func compassLag(at i: Int, _ smoother: AdaptiveSmoother) -> Double {
        guard i > 0 else { return 0 }
        let turn = truth[i] * truth[i - 1].conjugate
        let rate = 2 * acos(min(1, abs(turn.w))) / (samples[i].time - samples[i - 1].time)
        return 1 / smoother.cutoff(atRate: rate)
    }

    /// The index of the last sample at or before `time` (the first when none
    /// is), searched from `start`: the previous answer, since the times asked
    /// for move on with the samples.
    static func index(_ samples: [SensorSample], atOrBefore time: Double, from start: Int) -> Int {
        var j = start
        while j + 1 < samples.count, samples[j + 1].time <= time { j += 1 }
        while j > 0, samples[j].time > time { j -= 1 }
        return j
    }

    /// Runs both modes and checks the targets every case shares. Gyro fusion
    /// no worse than the compass in this clean field (the compass scored
    /// without its designed lag, ``compassLag(at:_:)``): within 0.05° + 5 % of it,
    /// since on slow turns both follow the same residual calibration error,
    /// which no filter can tell from north without turning through it, and the
    /// two differ only by noise. An honest accuracy: beyond 3 × accuracy in
    /// ≤ 1 % of the valid samples (issue 11's target, met), and within ±accuracy
    /// in at least 40 % (never optimistic). Issue 11 also asks for at most 85 %
    /// within: not met, the accuracy is conservative (docs/accuracy.md).
    /// Returns the fused and the compass's score for the case's own target.
    @discardableResult
    func checkCommonTargets() -> (fused: Score, compass: Score) {
        let fused = score(.auto), compass = score(.ecompass)
        print("battery \(battery.name): fused \(fused); compass \(compass)")
        #expect(fused.scored > samples.count / 2, "\(battery.name): only \(fused.scored) samples scored")
        #expect(fused.rmse <= compass.rmse * 1.05 + 0.05,
                "\(battery.name): gyro fusion \(Score.fixed(fused.rmse))° is worse than the compass's \(Score.fixed(compass.rmse))°")
        #expect(fused.beyondShare <= 0.01,
                "\(battery.name): error beyond 3 × headingAccuracy in \(Score.fixed(100 * fused.beyondShare))% of valid samples (≤ 1 % wanted)")
        #expect(fused.withinShare >= 0.40,
                "\(battery.name): error within ±headingAccuracy in only \(Score.fixed(100 * fused.withinShare))% of valid samples")
        return (fused, compass)
    }
}
