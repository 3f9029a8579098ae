import Testing
@testable import LodestoneCore

@Suite struct AxisErrorFilterTests {
    /// A bias uncertainty σb makes the angle uncertainty grow like σb·t, not √t.
    @Test func biasUncertaintyGrowsAngleVarianceQuadratically() {
        var f = AxisErrorFilter(angleVariance: 0, biasVariance: 1e-4)
        for _ in 0..<1_000 { f.predict(dt: 0.01, angleNoise: 0, biasNoise: 0) } // 10 s
        #expect(abs(f.angleVariance - 1e-4 * 100) < 1e-9)
        #expect(abs(f.covariance + 1e-4 * 10) < 1e-12) // the angle error runs against the bias error
    }

    @Test func angleMeasurementMatchesScalarKalmanUpdate() {
        var f = AxisErrorFilter(angleVariance: 4, biasVariance: 1)
        let c = f.measureAngle(innovation: 2, noise: 4)
        #expect(abs(c.angle - 1) < 1e-12) // gain 4 / (4 + 4)
        #expect(c.bias == 0)               // no correlation yet
        #expect(abs(f.angleVariance - 2) < 1e-12)
    }

    /// Once angle and bias are correlated, a repeated angle error teaches the bias.
    @Test func persistentAngleErrorIsAttributedToBias() {
        var f = AxisErrorFilter(angleVariance: 1e-4, biasVariance: 1e-4)
        let trueBias = 0.01           // rad/s
        var estimatedBias = 0.0
        var angleError = 0.0          // truth = rotation(angleError) ∘ estimate
        for _ in 0..<20_000 {         // 200 s at 100 Hz
            angleError -= (trueBias - estimatedBias) * 0.01
            f.predict(dt: 0.01, angleNoise: 1e-6, biasNoise: 0)
            let c = f.measureAngle(innovation: angleError, noise: 1e-2)
            angleError -= c.angle
            estimatedBias += c.bias
        }
        #expect(abs(estimatedBias - trueBias) < 1e-3)
    }
}
