import Testing
import LodestoneCore
import LodestoneSimulation

@Suite struct FusionModeTests {
    /// RMS heading error of the forward axis against the truth, after `settle` seconds.
    func rms(_ recording: SyntheticRecording, _ settings: HeadingEstimator.Settings, settle: Double = 5,
             vibration: (amplitude: Double, frequency: Double)? = nil) -> (rms: Double, fused: Bool) {
        var recording = recording
        recording.vibration = vibration
        var estimator = HeadingEstimator(settings: settings)
        var sum = 0.0, n = 0
        while let s = recording.nextSample() {
            guard let e = estimator.update(s), s.time > settle else { continue }
            let d = Angle.difference(from: recording.truth.heading(of: settings.forwardAxis.vector), to: e.magneticHeading)
            sum += d * d
            n += 1
        }
        return ((sum / Double(max(n, 1))).squareRoot(), estimator.isFusing)
    }

    @Test func autoUsesTheGyroWhenPresentAndItBeatsTheCompassUnderAcceleration() {
        let profile = MotionProfile([.sway(center: BoardAttitude(heading: 200, pitch: 10), amplitude: BoardAttitude(heading: 50, pitch: 20, roll: 20),
                                           period: 5, duration: 60)])
        let rec = SyntheticRecording(profile: profile, rate: 100, errors: .typical, includesGyroscope: true, seed: 4)
        let shaking = (amplitude: 3.0, frequency: 1.7)
        let fused = rms(rec, .init(fusion: .auto), vibration: shaking)
        let compass = rms(rec, .init(fusion: .ecompass), vibration: shaking)
        #expect(fused.fused)
        #expect(!compass.fused)
        #expect(fused.rms < 4, "AHRS RMS \(fused.rms)°")
        print("measured: AHRS \(fused.rms)°, compass \(compass.rms)° RMS under 3 m/s² shaking")
        #expect(compass.rms > 2 * fused.rms, "compass \(compass.rms)° vs AHRS \(fused.rms)°")
    }

    @Test func withoutAGyroAhrsFallsBackToTheCompass() {
        let rec = SyntheticRecording(profile: .holds(tilt: 20), rate: 50, errors: .typical)
        let r = rms(rec, .init(fusion: .ahrs))
        #expect(!r.fused)
    }

    @Test(arguments: ForwardAxis.allCases)
    func fusedHeadingOfEachForwardAxisMatchesTruth(axis: ForwardAxis) {
        // ±z: a board pitched 60°, nearer upright than flat, its back 30° below the horizon.
        let tilt = axis.top == .unitY ? 60.0 : 30.0
        let rec = SyntheticRecording(profile: .holds(tilt: tilt), rate: 100, errors: .typical, includesGyroscope: true)
        let r = rms(rec, .init(forwardAxis: axis, fusion: .ahrs))
        #expect(r.fused)
        #expect(r.rms < 1.5, "\(axis.rawValue): \(r.rms)°")
    }
}
