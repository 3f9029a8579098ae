import Testing
import LodestoneCore
import LodestoneSimulation

@Suite struct SyntheticRecordingTests {
    @Test func sameSeedSameSamples() {
        var a = SyntheticRecording(profile: .demo, errors: .typical, includesGyroscope: true, seed: 9)
        var b = SyntheticRecording(profile: .demo, errors: .typical, includesGyroscope: true, seed: 9)
        var c = SyntheticRecording(profile: .demo, errors: .typical, includesGyroscope: true, seed: 10)
        for _ in 0..<500 {
            let (x, y, z) = (a.nextSample(), b.nextSample(), c.nextSample())
            #expect(x == y)
            #expect(x != z)
        }
    }

    @Test func readingsAreTheTruthInTheBodyFrame() throws {
        let attitude = BoardAttitude(heading: 40, pitch: 20, roll: -30)
        var rec = SyntheticRecording(profile: MotionProfile([.hold(attitude, duration: 1)]))
        let first = rec.nextSample()
        let s = try #require(first)
        let q = attitude.quaternion
        #expect((q.rotate(s.acceleration) - Vector3(0, 0, 9.80665)).length < 1e-12)
        let env = SimulatedEnvironment()
        #expect((q.rotate(s.magneticField) - env.field).length < 1e-12)
        #expect(abs(q.heading(of: .unitY) - 40) < 1e-9)
    }

    /// The gyroscope reads the instantaneous body rate; integrating its
    /// samples by the trapezoid rule follows the truth closely at 200 Hz.
    @Test func gyroscopeIntegratesToTheTruth() {
        var rec = SyntheticRecording(profile: .demo, rate: 200, includesGyroscope: true)
        var q = rec.profile.attitude(at: 0)
        var previous: Vector3?
        var worst = 0.0
        while let s = rec.nextSample() {
            if let p = previous { q = (q * Quaternion(rotationVector: (p + s.angularRate!) / 2 / 200)).normalized }
            previous = s.angularRate
            worst = max(worst, (q.conjugate * rec.truth).angle * Angle.degreesPerRadian)
        }
        #expect(worst < 0.01, "integrated gyroscope strays \(worst)° from the truth")
    }

    @Test func exactCalibrationUndoesHardAndSoftIron() throws {
        let errors = SensorErrorModel(hardIron: Vector3(30, -12, 55), softIron: Matrix3(1.2, 0.1, 0, 0.1, 0.85, 0.05, 0, 0.05, 1.1))
        var rec = SyntheticRecording(profile: .tumble(duration: 10), errors: errors)
        let cal = errors.exactCalibration
        while let s = rec.nextSample() {
            #expect((rec.truth.rotate(cal.apply(s.magneticField)) - SimulatedEnvironment().field).length < 1e-9)
        }
    }

    /// A carried or room field grows over its rise, holds, then fades over its
    /// fade from the share it had reached.
    @Test func aFieldRisesHoldsAndFades() {
        let field = SyntheticRecording.CarriedField(start: 10, end: 100, field: Vector3(1, 0, 0), fade: 20, rise: 40)
        #expect(field.share(at: 9) == 0)
        #expect(abs(field.share(at: 30) - 0.5) < 1e-12)
        #expect(field.share(at: 60) == 1)
        #expect(abs(field.share(at: 110) - 0.5) < 1e-12)
        #expect(field.share(at: 130) == 0)
        // Ended before it had fully risen: it fades from what it reached.
        let short = SyntheticRecording.CarriedField(start: 0, end: 10, field: Vector3(1, 0, 0), fade: 10, rise: 20)
        #expect(abs(short.share(at: 15) - 0.25) < 1e-12)
    }
}

