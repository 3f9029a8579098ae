import LodestoneSimulation
import Testing
@testable import LodestoneCore

/// The gyro bias's random walk learned from how far the bias estimate moves:
/// an estimate that follows a bias walking at `walk` (°/s/√s) exactly, once per
/// 40 ms correction, against a setting of 0.01 °/s/√s.
@Suite struct BiasWalkEstimateTests {
    static let degree = Angle.radiansPerDegree
    static let setting = 0.01 * degree

    /// `duration` seconds of a bias walking at `walk`, its estimate's variance
    /// trace falling from `startTrace` to `endTrace` (°/s)² over the first minute.
    static func run(walk: Double, duration: Double = 900, startTrace: Double = 0, endTrace: Double = 0,
                    seed: UInt64 = 1) -> BiasWalkEstimate {
        var estimate = BiasWalkEstimate()
        var random = RandomSource(seed: seed)
        var bias = Vector3.zero
        let step = 0.04
        for k in 0...Int(duration / step) {
            let t = Double(k) * step
            let (x, y, z) = random.gaussianVector(sigma: walk * degree * step.squareRoot())
            bias += Vector3(x, y, z)
            let trace = t < 60 ? startTrace + (endTrace - startTrace) * t / 60 : endTrace
            estimate.observe(bias: bias, trace: trace * degree * degree, time: t, walkIntensity: setting * setting)
        }
        return estimate
    }

    /// Twice the setting's walk is four times its variance: learned within a
    /// factor the windows' scatter allows (a running mean of windows of three degrees of freedom each).
    @Test(arguments: [UInt64(1), 2, 3])
    func aWalkTwiceTheSettingIsLearned(seed: UInt64) {
        let factor = Self.run(walk: 0.02, seed: seed).factor
        #expect(factor > 2 && factor < 8, "learned \(factor) times the setting's variance, 4 expected")
    }

    /// Five times the setting's walk, 25 times its variance: raised from the
    /// second minute (the first is the start's, its move explained by what the
    /// filter learned), not after five windows as before. One window's sample
    /// scatters as χ² of three degrees of freedom, and the mean holds the
    /// start's, so only the raise is certain, not its size.
    @Test(arguments: [UInt64(1), 2, 3])
    func aWalkFarBeyondTheSettingIsTakenAtOnce(seed: UInt64) {
        let factor = Self.run(walk: 0.05, duration: 125, startTrace: 3, endTrace: 3e-4, seed: seed).factor
        #expect(factor > 2, "after two minutes the walk is taken to be \(factor) times the setting's variance, 25 true")
    }

    /// A part steadier than its setting (the simulator's 0.0005) keeps the setting.
    @Test func aSteadierPartKeepsTheSetting() {
        #expect(Self.run(walk: 0.0005).factor == 1)
    }

    /// The walk the setting says: the windows' mean stays near 1. A run of
    /// windows that passes the significance by chance (seeds 1 and 3 here)
    /// raises the walk only as far as the mean, which then falls back toward 1.
    @Test(arguments: [UInt64(1), 2, 3])
    func theSettingsOwnWalkKeepsNearTheSetting(seed: UInt64) {
        let factor = Self.run(walk: 0.01, seed: seed).factor
        #expect(factor < 2, "raised to \(factor) times the setting")
    }

    /// A bias being learned at the start (its variance falling from the
    /// turn-on uncertainty, 1 °/s an axis) moves the estimate by what it
    /// learns, not by a walk: the first window's move is explained by the fall.
    @Test func learningTheTurnOnBiasIsNoWalk() {
        var estimate = BiasWalkEstimate()
        let step = 0.04, trueBias = Vector3(0.8, -0.6, 0.9) * Self.degree
        for k in 0...Int(900 / step) {
            let t = Double(k) * step
            // The estimate converges on the true bias over the first minute; its variance falls alike.
            let learned = min(1, t / 60)
            let trace = 3 * (1 - learned) + 3e-4
            estimate.observe(bias: trueBias * learned, trace: trace * Self.degree * Self.degree, time: t,
                             walkIntensity: Self.setting * Self.setting)
        }
        #expect(estimate.factor == 1)
    }

    /// A gap starts a new window: a bias that jumped across it is not a walk.
    @Test func aGapStartsANewWindow() {
        var estimate = BiasWalkEstimate()
        for k in 0...Int(600 / 0.04) {
            let t = Double(k) * 0.04
            if k == Int(300 / 0.04) { estimate.interrupted() }
            let bias = t < 300 ? Vector3.zero : Vector3(1, 1, 1) * Self.degree
            estimate.observe(bias: bias, trace: 1e-8, time: t, walkIntensity: Self.setting * Self.setting)
        }
        #expect(estimate.factor == 1)
    }
}
