import Testing
@testable import LodestoneCore

@Suite struct AttitudeErrorFilterTests {
    static let isotropicBias = Matrix3(diagonal: Vector3(1e-4, 1e-4, 1e-4))

    /// A bias uncertainty σb makes the angle uncertainty grow like σb·t, not √t.
    @Test func biasUncertaintyGrowsAngleVarianceQuadratically() {
        var f = AttitudeErrorFilter(angleVariance: .zero, bias: Self.isotropicBias)
        for _ in 0..<1_000 { f.predict(rotation: .identity, dt: 0.01, angleNoise: .zero, biasNoise: 0) } // 10 s
        #expect(abs(f.angle.row0.x - 1e-4 * 100) < 1e-9)
        #expect(abs(f.angle.row2.z - 1e-4 * 100) < 1e-9)
        #expect(abs(f.cross.row1.y + 1e-4 * 10) < 1e-12) // the angle error runs against the bias error
        #expect(abs(f.angle.row0.y) < 1e-15)
    }

    /// The bias error belongs to the body: an uncertain bias about body x turns
    /// the estimate about whichever earth axis body x points along.
    @Test func biasErrorFollowsTheBody() {
        let onlyX = Matrix3(diagonal: Vector3(1e-4, 0, 0))
        let quarterTurn = Quaternion(axis: .unitZ, angle: Double.pi / 2).rotationMatrix // body x → north
        var f = AttitudeErrorFilter(angleVariance: .zero, bias: onlyX)
        for _ in 0..<1_000 { f.predict(rotation: quarterTurn, dt: 0.01, angleNoise: .zero, biasNoise: 0) }
        #expect(abs(f.angle.row1.y - 1e-4 * 100) < 1e-9)
        #expect(abs(f.angle.row0.x) < 1e-12)
        #expect(abs(f.angle.row2.z) < 1e-12)
        // Turned on by another quarter turn, the same bias now drives west.
        let halfTurn = Quaternion(axis: .unitZ, angle: Double.pi).rotationMatrix
        f = AttitudeErrorFilter(angleVariance: .zero, bias: onlyX)
        for _ in 0..<500 { f.predict(rotation: quarterTurn, dt: 0.01, angleNoise: .zero, biasNoise: 0) }
        for _ in 0..<500 { f.predict(rotation: halfTurn, dt: 0.01, angleNoise: .zero, biasNoise: 0) }
        #expect(abs(f.angle.row0.x - 1e-4 * 25) < 1e-9)
        #expect(abs(f.angle.row1.y - 1e-4 * 25) < 1e-9)
        #expect(abs(f.angle.row0.y + 1e-4 * 25) < 1e-9) // the same error, seen on two axes
    }

    /// A bias widened along with the heading it turned over `time` is what
    /// the model would have grown from that bias uncertainty over that time,
    /// so a reading of the bias then corrects the heading by what it turned.
    @Test func aBiasWidenedWithItsHeadingIsTheModelsGrowth() {
        let v = 1e-4, time = 3.0
        var grown = AttitudeErrorFilter(angleVariance: .zero, bias: Matrix3(diagonal: Vector3(0, 0, v)))
        for _ in 0..<300 { grown.predict(rotation: .identity, dt: 0.01, angleNoise: .zero, biasNoise: 0) }
        var widened = AttitudeErrorFilter(angleVariance: .zero, bias: Matrix3(diagonal: .zero))
        widened.widenBias(along: .unitZ, variance: v, turning: .unitZ, for: time)
        #expect(abs(widened.angle.row2.z - grown.angle.row2.z) < 1e-10)
        #expect(abs(widened.cross.row2.z - grown.cross.row2.z) < 1e-12)
        #expect(abs(widened.bias.row2.z - grown.bias.row2.z) < 1e-15)
        // A gyro reading δ more than the bias held turned the estimate on by δ·time: taken back.
        let c = widened.measureBias(along: .unitZ, innovation: 0.01, noise: 1e-12)
        #expect(abs(c.bias.z - 0.01) < 1e-9)
        #expect(abs(c.angle.z + 0.01 * time) < 1e-9)
    }

    @Test func headingMeasurementMatchesScalarKalmanUpdate() {
        var f = AttitudeErrorFilter(angleVariance: Vector3(1, 1, 4), bias: Self.isotropicBias)
        let c = f.measureHeading(innovation: 2, noise: 4)
        #expect(abs(c.angle.z - 1) < 1e-12) // gain 4 / (4 + 4)
        #expect(c.bias == .zero)             // no correlation yet
        #expect(abs(f.angle.row2.z - 2) < 1e-12)
    }

    /// The magnetometer never tilts the estimate, nor claims to know the tilt
    /// better, even where tilt and heading errors are correlated.
    @Test func headingMeasurementLeavesTheTilt() {
        var f = AttitudeErrorFilter(angleVariance: .zero, bias: Matrix3(diagonal: Vector3(1e-4, 1e-6, 1e-6)))
        let tilted = Quaternion(axis: Vector3(1, 1, 0), angle: 0.8).rotationMatrix
        for _ in 0..<500 { f.predict(rotation: tilted, dt: 0.01, angleNoise: Vector3(1e-6, 1e-6, 1e-6), biasNoise: 0) }
        let before = f.angle
        #expect(abs(before.row0.z) > 1e-6) // heading and tilt errors share the bias
        let c = f.measureHeading(innovation: 0.01, noise: 1e-4)
        #expect(c.angle.x == 0 && c.angle.y == 0)
        #expect(c.angle.z > 0)
        #expect(c.bias.length > 0)
        #expect(f.angle.row0.x == before.row0.x && f.angle.row1.y == before.row1.y && f.angle.row0.y == before.row0.y)
        #expect(f.angle.row2.z < before.row2.z)
        #expect(f.angle.row0.z == f.angle.row2.x && f.angle.row1.z == f.angle.row2.y)
    }

    /// A tilt read from an average over the last second also shows where the
    /// bias error has turned the estimate during that second (`lag·δb`). Told
    /// so, the filter learns the bias from it with the right sign.
    @Test func laggedTiltTeachesTheBias() {
        let lag = Vector3(0.5, 0, 0)
        var f = AttitudeErrorFilter(angleVariance: Vector3(1e-9, 1e-9, 1e-9), bias: Self.isotropicBias)
        let biasError = 0.004 // rad/s about body x, and the angle is right
        let correction = f.measureTilt(east: lag.x * biasError, north: 0, eastLag: lag, northLag: .zero, noise: 1e-6)
        #expect(correction.bias.x > 0.5 * biasError)
        #expect(abs(correction.angle.x) < 1e-6)
        // The same reading fused as a plain angle moves the angle instead.
        var plain = AttitudeErrorFilter(angleVariance: Vector3(1e-9, 1e-9, 1e-9), bias: Self.isotropicBias)
        let p = plain.measureTilt(east: lag.x * biasError, north: 0, eastLag: .zero, northLag: .zero, noise: 1e-6)
        #expect(p.bias == .zero)
    }

    /// The sequential east-then-north update equals the joint two-dimensional one.
    @Test func tiltUpdateMatchesJointUpdate() {
        var f = AttitudeErrorFilter(angleVariance: Vector3(2e-4, 1e-4, 3e-4), bias: Self.isotropicBias)
        let r = Quaternion(axis: Vector3(0.3, -0.2, 1), angle: 1.1).rotationMatrix
        for _ in 0..<300 { f.predict(rotation: r, dt: 0.01, angleNoise: Vector3(1e-6, 2e-6, 3e-6), biasNoise: 1e-8) }
        let eastLag = Vector3(0.2, -0.1, 0.4), northLag = Vector3(-0.3, 0.25, 0.1)
        let noise = 5e-5
        // Joint: H rows (e_x, eastLag) and (e_y, northLag); K = P·Hᵀ·S⁻¹.
        func ph(_ a: Vector3, _ b: Vector3) -> (Vector3, Vector3) {
            (f.angle * a + f.cross * b, f.cross.transposed * a + f.bias * b)
        }
        let (aE, bE) = ph(.unitX, eastLag), (aN, bN) = ph(.unitY, northLag)
        let s11 = aE.x + eastLag.dot(bE) + noise, s22 = aN.y + northLag.dot(bN) + noise
        let s12 = aE.y + northLag.dot(bE)
        let det = s11 * s22 - s12 * s12
        let (y1, y2) = (0.002, -0.001)
        let w1 = (s22 * y1 - s12 * y2) / det, w2 = (s11 * y2 - s12 * y1) / det
        let expectedAngle = aE * w1 + aN * w2, expectedBias = bE * w1 + bN * w2
        var g = f
        let c = g.measureTilt(east: y1, north: y2, eastLag: eastLag, northLag: northLag, noise: noise)
        #expect((c.angle - expectedAngle).length < 1e-12)
        #expect((c.bias - expectedBias).length < 1e-12)
    }

    /// At rest the gyro reading is the bias error: it is learned, and what
    /// was correlated with it (the angle it caused) is corrected too.
    @Test func restReadingTeachesBiasAndAngle() {
        var f = AttitudeErrorFilter(angleVariance: .zero, bias: Self.isotropicBias)
        for _ in 0..<100 { f.predict(rotation: .identity, dt: 0.01, angleNoise: .zero, biasNoise: 0) }
        let c = f.measureBias(axis: 1, innovation: 0.01, noise: 1e-6)
        #expect(abs(c.bias.y - 0.01 * 1e-4 / (1e-4 + 1e-6)) < 1e-12)
        #expect(c.bias.x == 0 && c.bias.z == 0)
        #expect(c.angle.y < 0) // a positive bias error has turned the estimate back about north
        #expect(f.bias.row1.y < 1e-5)
    }
}

/// The bias's temperature slope as three more states.
@Suite struct AttitudeErrorFilterSlopeTests {
    static let slopePrior = 1e-6  // (rad/s/K)²
    static let bias = Matrix3(diagonal: Vector3(1e-8, 1e-8, 1e-8))

    static func warmed(by kelvin: Double, _ f: inout AttitudeErrorFilter) {
        var g = AttitudeErrorFilter.Growth(rotationIntegral: Matrix3.identity * 0.04, time: 0.04)
        g.warming = kelvin
        f.predict(g)
    }

    /// Warming by ΔT moves the bias error by ΔT times the slope's: its variance
    /// grows by ΔT² times the slope's, and the two become correlated.
    @Test func aWarmingLoosensTheBiasByTheSlope() {
        var f = AttitudeErrorFilter(angleVariance: .zero, bias: Self.bias)
        f.startTrackingSlope(variance: Self.slopePrior)
        Self.warmed(by: 5, &f)
        #expect(abs(f.bias.row0.x - (1e-8 + 25 * Self.slopePrior)) < 1e-15)
        #expect(abs(f.slopeBias.row2.z - 5 * Self.slopePrior) < 1e-15)
        #expect(f.bias.row0.y == 0, "each axis's slope is its own")
    }

    /// A bias read at rest before and after a 10 K warming teaches the slope:
    /// the bias moved by 0.01 rad/s, so the slope is 0.001 rad/s/K.
    @Test func biasReadingsAtTwoTemperaturesTeachTheSlope() {
        var f = AttitudeErrorFilter(angleVariance: .zero, bias: Self.bias)
        f.startTrackingSlope(variance: Self.slopePrior)
        _ = f.measureBias(axis: 2, innovation: 0, noise: 1e-10)
        Self.warmed(by: 10, &f)
        let c = f.measureBias(axis: 2, innovation: 0.01, noise: 1e-10)
        #expect(abs(c.slope.z - 0.001) < 2e-5, "slope \(c.slope.z)")
        #expect(abs(c.bias.z - 0.01) < 2e-4)
        #expect(c.slope.x == 0 && c.slope.y == 0)
        #expect(f.slope.row2.z < 0.01 * Self.slopePrior)
        #expect(f.slope.row0.x == Self.slopePrior, "the x axis was not read")
    }

    /// Without a temperature the slope is no state: nothing about it moves.
    @Test func withoutATemperatureTheSlopeStaysOut() {
        var f = AttitudeErrorFilter(angleVariance: Vector3(1e-4, 1e-4, 1e-2), bias: Self.bias)
        Self.warmed(by: 5, &f)
        var c = f.measureHeading(innovation: 0.1, noise: 1e-4)
        c += f.measureTilt(east: 0.01, north: -0.01, eastLag: Vector3(0.1, 0, 0), northLag: Vector3(0, 0.1, 0), noise: 1e-4)
        #expect(!f.tracksSlope && c.slope == .zero)
        #expect(f.slope == .zero && f.slopeBias == .zero && f.slopeAngle == .zero && f.slopeCompass == .zero)
    }

    /// A tilt reading that does not teach the slope (an acceleration could
    /// explain it) still corrects the bias, and keeps the slope's covariances
    /// with it right, but leaves the slope as uncertain as it was.
    @Test func aTiltReadingThatDoesNotTeachTheSlope() {
        var f = AttitudeErrorFilter(angleVariance: Vector3(1e-4, 1e-4, 1e-2), bias: Self.bias)
        f.startTrackingSlope(variance: Self.slopePrior)
        Self.warmed(by: 5, &f)
        let before = f.slope
        let c = f.measureTilt(east: 0.01, north: -0.01, eastLag: Vector3(1, 0, 0), northLag: Vector3(0, 1, 0),
                              noise: 1e-6, teachesSlope: false)
        #expect(c.slope == .zero && f.slope == before)
        #expect(c.bias.length > 0)
        #expect(abs(f.slopeBias.row0.x) < 5 * Self.slopePrior)
    }
}
