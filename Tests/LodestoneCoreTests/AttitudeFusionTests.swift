import Foundation
import Testing
@testable import LodestoneCore

@Suite struct AttitudeFusionTests {
    let dt = 0.01

    /// The start levels from gravity averaged over its first 0.2 s (``StartLevel``):
    /// nothing is reported before, and then the attitude is gravity's and the field's.
    @Test func startSetsAttitudeFromGravityAndField() {
        let truth = Quaternion(axis: Vector3(0.2, -0.4, 1), angle: 2.1)
        var sim = MotionSimulation(truth: truth)
        sim.magNoise = 0
        sim.accelNoise = 0
        var fusion = AttitudeFusion()
        #expect(!fusion.isInitialized)
        #expect(fusion.headingUncertainty == 180)
        for i in 0...20 {
            #expect(!fusion.isInitialized, "started after \(i) samples, \(Double(i - 1) * dt) s")
            let r = sim.step(rate: .zero, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate,
                          dt: i == 0 ? 0 : dt)
        }
        #expect(fusion.isInitialized)
        #expect(abs(abs(fusion.attitude.dot(truth)) - 1) < 1e-9)
        #expect(fusion.headingUncertainty < 10)
    }

    /// A source slower than the longest step (a sample a second) cannot gather a
    /// start: the gap ends the gathering, and the attitude levels from the
    /// reading. Gathering across it, the fusion never started.
    @Test func aSourceSlowerThanTheLongestStepStartsAtItsSecondSample() {
        let truth = Quaternion(axis: Vector3(0.2, -0.4, 1), angle: 2.1)
        var sim = MotionSimulation(truth: truth)
        var fusion = AttitudeFusion()
        for i in 0..<5 {
            let r = sim.step(rate: .zero, dt: 1)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate,
                          dt: i == 0 ? 0 : 1)
            #expect(fusion.isInitialized == (i > 0), "sample \(i)")
        }
        #expect(headingError(fusion.attitude, truth) < 5)
    }

    /// Constant rates about tilted axes (four 60 s legs, each about a different
    /// axis) with a constant gyro bias: the bias is learned from gravity and
    /// field during the motion, never at rest, and the heading follows.
    /// (About a single fixed axis only the bias along that axis is observable;
    /// the rest of it just makes the board wobble.)
    @Test func learnsGyroBiasAndTracksHeadingWhileTurning() {
        var sim = MotionSimulation(truth: Quaternion(axis: Vector3(1, 1, 0), angle: 0.3), seed: 7)
        let bias = Vector3(0.012, -0.02, 0.015) // rad/s, about 0.7–1.1 °/s
        sim.gyroBias = bias
        var fusion = AttitudeFusion()
        let axes = [Vector3(0.3, -0.5, 0.8), Vector3(-0.7, 0.2, 0.5), Vector3(0.4, 0.8, -0.3), Vector3(-0.2, -0.6, -0.6)]
        var worstLate = 0.0
        var withoutBias = AttitudeFusion() // reference: same filter, bias never learned
        var settings = AttitudeFusion.Settings()
        settings.initialBiasUncertainty = 1e-6
        settings.gyroBiasRandomWalk = 1e-9
        withoutBias = AttitudeFusion(settings: settings)
        var lateErrorWithout = 0.0
        for i in 0..<24_000 { // 240 s
            let r = sim.step(rate: axes[i / 6_000].normalized * 0.6, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            withoutBias.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            if i >= 18_000 {
                worstLate = max(worstLate, headingError(fusion.attitude, sim.truth))
                lateErrorWithout = max(lateErrorWithout, headingError(withoutBias.attitude, sim.truth))
            }
        }
        let biasError = (fusion.gyroBias - bias).length * Angle.degreesPerRadian
        #expect(biasError < 0.1, "bias error \(biasError) °/s: \(fusion.gyroBias) vs \(bias)")
        #expect(worstLate < 1, "heading error \(worstLate)°")
        // The bias estimate is what keeps the heading: without it the same filter lags.
        #expect(lateErrorWithout > worstLate)
        #expect(!fusion.isAtRest)
    }

    @Test func learnsBiasAtRest() {
        var sim = MotionSimulation(seed: 3)
        sim.gyroBias = Vector3(-0.01, 0.02, 0.03)
        var fusion = AttitudeFusion()
        for _ in 0..<1_000 {
            let r = sim.step(rate: .zero, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
        }
        #expect(fusion.isAtRest)
        #expect((fusion.gyroBias - sim.gyroBias).length * Angle.degreesPerRadian < 0.02)
    }

    /// A magnet fixed to the board for 20 s while it turns: the heading must
    /// not follow the field, the disturbance must be reported, the uncertainty
    /// must grow, and the filter must come back once the magnet is gone.
    @Test func attachedMagnetDoesNotSwingHeadingAndFilterRecovers() {
        var sim = MotionSimulation(seed: 11)
        sim.gyroBias = Vector3(0.004, -0.003, 0.005)
        var fusion = AttitudeFusion()
        var worstDuring = 0.0, disturbedDuring = 0, samplesDuring = 0
        var uncertaintyBefore = 0.0, uncertaintyAtEnd = 0.0
        var errorAfter = 0.0
        var naiveWorst = 0.0
        for i in 0..<9_000 { // 90 s: 10 s still, then turning; magnet from 30 s to 50 s
            let t = Double(i) * dt
            sim.bodyFieldOffset = (30..<50).contains(t) ? Vector3(15, 25, -20) : .zero
            let rate = t < 10 ? Vector3.zero : Vector3(0.2 * sin(0.5 * t), 0.15 * cos(0.3 * t), 0.5)
            let r = sim.step(rate: rate, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            let err = headingError(fusion.attitude, sim.truth)
            if i == 2_999 { uncertaintyBefore = fusion.headingUncertainty }
            if (30..<50).contains(t) {
                samplesDuring += 1
                worstDuring = max(worstDuring, err)
                if fusion.isMagneticallyDisturbed { disturbedDuring += 1 }
                naiveWorst = max(naiveWorst, headingError(naiveCompass(r), sim.truth))
            }
            if i == 4_999 { uncertaintyAtEnd = fusion.headingUncertainty }
            if t >= 70 { errorAfter = max(errorAfter, err) }
        }
        #expect(naiveWorst > 30, "the magnet must matter: a plain compass is off by \(naiveWorst)°")
        #expect(worstDuring < 1, "heading error with the magnet \(worstDuring)°")
        #expect(Double(disturbedDuring) > 0.9 * Double(samplesDuring))
        #expect(uncertaintyAtEnd > uncertaintyBefore)
        #expect(errorAfter < 1, "heading error after the magnet left \(errorAfter)°")
        #expect(!fusion.isMagneticallyDisturbed)
        #expect(fusion.headingUncertainty < uncertaintyAtEnd)
    }

    /// A short strong field in the room (walking past a magnet) while still.
    @Test func passingMagnetIsRejected() {
        var sim = MotionSimulation(seed: 5)
        var fusion = AttitudeFusion()
        var worst = 0.0
        for i in 0..<4_000 {
            let t = Double(i) * dt
            sim.earthFieldOffset = (20..<22).contains(t) ? Vector3(30, -10, 5) : .zero
            let r = sim.step(rate: Vector3(0, 0, t < 15 ? 0 : 0.3), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            if t > 15 { worst = max(worst, headingError(fusion.attitude, sim.truth)) }
        }
        #expect(worst < 1, "heading error \(worst)°")
    }

    @Test func nonFiniteSamplesAndBadTimeStepsAreIgnored() {
        var sim = MotionSimulation(seed: 2)
        var fusion = AttitudeFusion()
        for _ in 0..<500 {
            let r = sim.step(rate: Vector3(0, 0, 0.2), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
        }
        let before = fusion.attitude, bias = fusion.gyroBias, sigma = fusion.headingUncertainty
        let nan = Double.nan
        fusion.update(acceleration: Vector3(nan, 0, 9.8), magneticField: Vector3(0, 20, -40), angularRate: .zero, dt: dt)
        fusion.update(acceleration: Vector3(0, 0, 9.8), magneticField: Vector3(0, .infinity, -40), angularRate: .zero, dt: dt)
        fusion.update(acceleration: Vector3(0, 0, 9.8), magneticField: Vector3(0, 20, -40), angularRate: Vector3(0, nan, 0), dt: dt)
        fusion.update(acceleration: Vector3(0, 0, 9.8), magneticField: Vector3(0, 20, -40), angularRate: .zero, dt: nan)
        fusion.update(acceleration: Vector3(0, 0, 9.8), magneticField: Vector3(0, 20, -40), angularRate: .zero, dt: 0)
        fusion.update(acceleration: Vector3(0, 0, 9.8), magneticField: Vector3(0, 20, -40), angularRate: .zero, dt: -1)
        fusion.update(acceleration: .zero, magneticField: Vector3(0, 20, -40), angularRate: .zero, dt: dt)
        #expect(fusion.attitude == before)
        #expect(fusion.gyroBias == bias)
        #expect(fusion.headingUncertainty == sigma)
        // It goes on normally afterwards.
        for _ in 0..<200 {
            let r = sim.step(rate: Vector3(0, 0, 0.2), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
        }
        #expect(headingError(fusion.attitude, sim.truth) < 2)
    }

    /// After a gap the board may have turned anywhere: the attitude restarts
    /// from gravity and field, the learned bias is kept.
    @Test func longGapReinitialisesAttitudeAndKeepsBias() {
        var sim = MotionSimulation(seed: 4)
        sim.gyroBias = Vector3(0.02, 0, -0.01)
        var fusion = AttitudeFusion()
        for _ in 0..<1_000 {
            let r = sim.step(rate: .zero, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
        }
        let bias = fusion.gyroBias
        sim.truth = Quaternion(axis: Vector3(0.3, 0.1, 1), angle: 2.5) // turned during the gap
        let r = sim.step(rate: .zero, dt: dt)
        fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: 5)
        #expect(headingError(fusion.attitude, sim.truth) < 5)
        #expect(fusion.gyroBias == bias)
    }

    /// A gap in a vehicle's curve: the first reading after it is tilted 20° by
    /// the centripetal acceleration (0.36 g). Restarting from it put the tilt
    /// 20° off and the heading, through tan(dip), further; the tilt held
    /// before the gap is kept, and the heading taken from the compass with it.
    @Test func gapInACurveKeepsTheTiltHeldBeforeIt() {
        var sim = MotionSimulation(seed: 9)
        var fusion = AttitudeFusion()
        let speed = 20.0, turnRate = 10 * Angle.radiansPerDegree
        func drive(_ seconds: Double, turning: Bool) -> (heading: Double, inclination: Double) {
            let rate = Vector3(0, 0, turning ? turnRate : 0)
            // Turning left, the centripetal acceleration points left: −x.
            let centripetal = Vector3(-speed * rate.z, 0, 0)
            var worst = (heading: 0.0, inclination: 0.0)
            for _ in 0..<Int((seconds / dt).rounded()) {
                let r = sim.step(rate: rate, dt: dt)
                fusion.update(acceleration: r.acceleration + centripetal, magneticField: r.magneticField,
                              angularRate: r.angularRate, dt: dt)
                worst = (max(worst.heading, headingError(fusion.attitude, sim.truth)),
                         max(worst.inclination, inclinationError(fusion.attitude, sim.truth)))
            }
            return worst
        }
        _ = drive(60, turning: false)
        let before = drive(6, turning: true)
        // Two seconds with no samples, then one.
        let rate = Vector3(0, 0, turnRate)
        _ = sim.step(rate: rate, dt: 2 - dt)
        let r = sim.step(rate: rate, dt: dt)
        fusion.update(acceleration: r.acceleration + Vector3(-speed * turnRate, 0, 0), magneticField: r.magneticField,
                      angularRate: r.angularRate, dt: 2)
        let first = (heading: headingError(fusion.attitude, sim.truth), inclination: inclinationError(fusion.attitude, sim.truth))
        let curve = drive(4, turning: true)
        let straight = drive(20, turning: false)
        print("measured gap in a curve: worst before it heading \(before.heading)°, inclination \(before.inclination)°; first reading after it \(first.heading)°, \(first.inclination)°; rest of the curve \(curve.heading)°, \(curve.inclination)°; straight after \(straight.heading)°, \(straight.inclination)°")
        #expect(first.inclination < before.inclination + 1, "the tilt restarted from an accelerated reading: \(first.inclination)°")
        #expect(max(curve.inclination, straight.inclination) < 3, "inclination after the gap: \(curve.inclination)°, \(straight.inclination)°")
        #expect(max(first.heading, curve.heading, straight.heading) < 5, "heading after the gap: \(first.heading)°, \(curve.heading)°, \(straight.heading)°")
    }

    /// A board at rest, set down anew 20° tilted while no samples came: its
    /// first reading is gravity's alone (its length is g), so nothing but a
    /// tilt explains its direction, and the attitude restarts from it.
    @Test func boardSetDownAnewDuringAGapIsReLevelled() {
        var sim = MotionSimulation(seed: 12)
        var fusion = AttitudeFusion()
        for _ in 0..<3_000 {
            let r = sim.step(rate: .zero, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
        }
        sim.truth = sim.truth * Quaternion(axis: Vector3(1, 0.3, 0), angle: 20 * Angle.radiansPerDegree)
        var worst = (heading: 0.0, inclination: 0.0)
        for i in 0..<300 {
            let r = sim.step(rate: .zero, dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate,
                          dt: i == 0 ? 5 : dt)
            worst = (max(worst.heading, headingError(fusion.attitude, sim.truth)),
                     max(worst.inclination, inclinationError(fusion.attitude, sim.truth)))
        }
        print("measured set down anew: worst heading \(worst.heading)°, inclination \(worst.inclination)° in the 3 s after the gap")
        #expect(worst.inclination < 3 && worst.heading < 5, "heading \(worst.heading)°, inclination \(worst.inclination)°")
    }

    private func naiveCompass(_ r: MotionSimulation.Reading) -> Quaternion {
        let up = r.acceleration.normalized
        let east = r.magneticField.cross(up).normalized
        return Quaternion(rotationMatrix: Matrix3(rows: east, up.cross(east), up))
    }
}
