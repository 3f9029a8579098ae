import Testing
import LodestoneCore
import LodestoneSimulation

/// Runs a recording through an estimator and pairs each estimate with the truth heading.
func estimates(_ recording: SyntheticRecording, settings: HeadingEstimator.Settings)
    -> [(time: Double, estimate: Double, truth: Double, valid: Bool)] {
    var recording = recording
    var estimator = HeadingEstimator(settings: settings)
    var out: [(Double, Double, Double, Bool)] = []
    while let s = recording.nextSample() {
        guard let e = estimator.update(s) else { continue }
        out.append((s.time, e.magneticHeading, recording.truth.heading(of: settings.forwardAxis.vector), e.isValid))
    }
    return out
}

@Suite struct HeadingEstimatorTests {
    /// The still parts of a holds profile: from `settle` seconds after each hold starts to its end.
    static func holdWindows(_ profile: MotionProfile, settle: Double) -> [ClosedRange<Double>] {
        var start = 0.0, windows: [ClosedRange<Double>] = []
        for s in profile.segments {
            if case .hold = s.self, s.duration > settle { windows.append((start + settle)...(start + s.duration)) }
            start += s.duration
        }
        return windows
    }

    @Test(arguments: ForwardAxis.allCases, [0.0, 30.0, 50.0, 70.0])
    func noiselessHoldsAreExact(axis: ForwardAxis, tilt: Double) {
        // Tilt the forward axis itself for ±y, and roll for ±x, so every axis sees the tilt;
        // stand the board up for ±z (pitch 90°: the axis level), then tilt it back.
        let profile: MotionProfile
        func held(pitch: Double, roll: Double) -> MotionProfile {
            func tilted(_ a: BoardAttitude) -> BoardAttitude { BoardAttitude(heading: a.heading, pitch: pitch, roll: roll) }
            return MotionProfile(MotionProfile.holds(tilt: 0).segments.map { s in
                switch s {
                case .hold(let a, let d): return .hold(tilted(a), duration: d)
                case .move(let a, let b, let d): return .move(from: tilted(a), to: tilted(b), duration: d)
                default: return s
                }
            })
        }
        switch axis {
        case .plusY, .minusY: profile = .holds(tilt: tilt)
        case .plusX, .minusX: profile = held(pitch: tilt / 3, roll: tilt)
        case .minusZ, .plusZ: profile = held(pitch: 90 - tilt, roll: tilt / 3)
        }
        var settings = HeadingEstimator.Settings(forwardAxis: axis)
        settings.smoothing = nil
        let recording = SyntheticRecording(profile: profile, rate: 50)
        let windows = Self.holdWindows(profile, settle: 0)
        var worst = 0.0, checked = 0
        for r in estimates(recording, settings: settings) where windows.contains(where: { $0.contains(r.time) }) {
            worst = max(worst, abs(Angle.difference(from: r.truth, to: r.estimate)))
            #expect(r.valid)
            checked += 1
        }
        #expect(checked > 1000)
        #expect(worst < 0.01, "axis \(axis.rawValue) tilt \(tilt): worst error \(worst)°")
    }

    @Test func smoothedNoiselessHoldsConverge() {
        let profile = MotionProfile.holds(tilt: 40)
        let windows = Self.holdWindows(profile, settle: 3)
        let results = estimates(SyntheticRecording(profile: profile, rate: 50), settings: .init())
        let worst = results.filter { r in windows.contains { $0.contains(r.time) } }
            .map { abs(Angle.difference(from: $0.truth, to: $0.estimate)) }.max() ?? .infinity
        #expect(worst < 0.01)
    }

    /// With a gyroscope too (gyro fusion): the start must not be slower than the compass's.
    @Test(arguments: [10.0, 50.0, 100.0, 400.0], [false, true])
    func noisyHoldSettlesWithinTwoSeconds(rate: Double, gyroscope: Bool) {
        // A hold from the very first sample: 0.5 µT, 0.05 m/s² and 0.005 rad/s noise, tilted.
        for (seed, attitude) in [BoardAttitude(heading: 17, pitch: 10), BoardAttitude(heading: 250, pitch: -30, roll: 20),
                                 BoardAttitude(heading: 359.5, roll: 45)].enumerated() {
            let recording = SyntheticRecording(profile: MotionProfile([.hold(attitude, duration: 12)]), rate: rate,
                                               errors: .typical, includesGyroscope: gyroscope, seed: UInt64(seed + 7))
            let errors = estimates(recording, settings: .init()).filter { $0.time >= 2 }
                .map { Angle.difference(from: $0.truth, to: $0.estimate) }
            let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
            #expect(rms < 1, "rate \(rate) Hz, gyroscope \(gyroscope), \(attitude): RMS \(rms)° after 2 s")
            if gyroscope {
                print("measured hold with gyro fusion at \(rate) Hz, \(attitude): RMS \(rms)° after 2 s")
                // As the compass alone does (≤ 0.32° here); the first readings' noise is averaged, not kept.
                if rate >= 50 { #expect(rms < 0.5, "gyro fusion at \(rate) Hz, \(attitude): RMS \(rms)° after 2 s") }
            }
        }
    }

    @Test func noisyHoldsAfterTurnsStayWithinOneDegree() {
        let rms = Self.holdRMS(SyntheticRecording(profile: .holds(tilt: 35), rate: 100, errors: .typical, seed: 3))
        #expect(rms < 1, "RMS \(rms)°")
    }

    @Test func smoothingIsContinuousAcrossNorth() {
        // Sway ±20° around north: the truth crosses 359 ↔ 1 many times.
        let profile = MotionProfile([.sway(center: BoardAttitude(heading: 0), amplitude: BoardAttitude(heading: 20),
                                           period: 8, duration: 40)])
        let results = estimates(SyntheticRecording(profile: profile, rate: 50, errors: .typical), settings: .init())
        var crossings = 0
        for (a, b) in zip(results, results.dropFirst()) {
            #expect(abs(Angle.difference(from: a.estimate, to: b.estimate)) < 3, "jump at \(b.time)")
            if (a.estimate > 300) != (b.estimate > 300) { crossings += 1 }
            #expect(b.estimate >= 0 && b.estimate < 360)
        }
        #expect(crossings >= 8)
        let worst = results.filter { $0.time > 2 }.map { abs(Angle.difference(from: $0.truth, to: $0.estimate)) }.max() ?? 99
        #expect(worst < 5, "worst lag error \(worst)°")
    }

    @Test func lagStaysBoundedInFastTurns() {
        // 180°/s yaw: the smoother opens up; the lag stays near its configured bound.
        let recording = SyntheticRecording(profile: .spin(rate: 180, tilt: 10, duration: 10), rate: 200, errors: .typical)
        let errors = estimates(recording, settings: .init()).filter { $0.time > 1 }
            .map { abs(Angle.difference(from: $0.truth, to: $0.estimate)) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 5, "mean error while spinning \(mean)°")
    }

    /// RMS heading error over the holds of `recording`, from 2 s into each; infinite
    /// when no estimate fell in them, so that no bound passes on nothing.
    static func holdRMS(_ recording: SyntheticRecording) -> Double {
        let windows = holdWindows(recording.profile, settle: 2)
        let errors = estimates(recording, settings: .init()).filter { r in windows.contains { $0.contains(r.time) } }
            .map { Angle.difference(from: $0.truth, to: $0.estimate) }
        guard !errors.isEmpty else { return .infinity }
        return (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
    }

    /// A motor's vibration, 7–14° of tilt each way, which the smoother must
    /// average, not take for turning (that opened it, and let the vibration through).
    /// Measured on the old rate (the steps' magnitude averaged): 6.7°, 15.3° and 13.8°.
    @Test(arguments: [(1.0, 31.0, 1.0), (2.0, 23.0, 1.5), (2.0, 45.0, 5.0)])
    func vibrationDoesNotOpenTheSmoother(amplitude: Double, frequency: Double, bound: Double) {
        var recording = SyntheticRecording(profile: .holds(tilt: 20), rate: 100, errors: .typical)
        recording.vibration = (amplitude, frequency)
        let rms = Self.holdRMS(recording)
        print("measured: compass-mode holds under \(amplitude) m/s² at \(frequency) Hz: \(rms)° RMS")
        #expect(rms < bound, "\(rms)° RMS")
    }

    /// Noise six and ten times the typical part's, 3° of tilt and of field direction a
    /// sample: 8.0° on the old rate.
    @Test func noisySensorsDoNotOpenTheSmoother() {
        let noisy = SensorErrorModel(magnetometerNoise: 3, accelerometerNoise: 0.5)
        let rms = Self.holdRMS(SyntheticRecording(profile: .holds(tilt: 20), rate: 100, errors: noisy, seed: 3))
        print("measured: compass-mode holds with noisy sensors: \(rms)° RMS")
        #expect(rms < 2, "\(rms)° RMS")
    }

    @Test func attitudeMatchesTruthInEnu() {
        var recording = SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 123, pitch: 25, roll: -40), duration: 1)]))
        var estimator = HeadingEstimator()
        while let s = recording.nextSample() { _ = estimator.update(s) }
        let q = estimator.attitude
        #expect(abs(abs(q.dot(recording.truth)) - 1) < 1e-12)
        // Gravity rotated into the earth frame points up.
        #expect((q.rotate(estimator.smoother.gravity.normalized) - .unitZ).length < 1e-9)
    }

    @Test func headingIsInvalidWhenForwardAxisIsNearVertical() {
        var settings = HeadingEstimator.Settings()
        settings.smoothing = nil
        for (pitch, valid) in [(85.0, false), (81.0, false), (79.0, true), (-85.0, false)] {
            let rec = SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 10, pitch: pitch), duration: 0.1)]))
            let r = estimates(rec, settings: settings)
            #expect(r.allSatisfy { $0.valid == valid }, "pitch \(pitch)")
        }
    }

    @Test func implausibleMagnitudesAreInvalid() {
        var estimator = HeadingEstimator(settings: .init(smoothing: nil))
        let still = Vector3(0, 0, 9.81), field = Vector3(0, 20, -40)
        let ok = estimator.update(SensorSample(time: 0, acceleration: still, magneticField: field))
        #expect(ok?.isValid == true)
        let freeFall = estimator.update(SensorSample(time: 0.01, acceleration: Vector3(0, 0, 0.5), magneticField: field))
        #expect(freeFall?.isValid == false)
        let magnet = estimator.update(SensorSample(time: 0.02, acceleration: still, magneticField: field * 5))
        #expect(magnet?.isValid == false)
        let noField = estimator.update(SensorSample(time: 0.03, acceleration: still, magneticField: field * 0.1))
        #expect(noField?.isValid == false)
        #expect(estimator.accuracy(for: noField!) == -1)
    }

    @Test func nonFiniteSamplesAreIgnoredWithoutPoisoningTheState() {
        var estimator = HeadingEstimator()
        let field = Vector3(0, 20, -40)
        _ = estimator.update(SensorSample(time: 0, acceleration: Vector3(0, 0, 9.81), magneticField: field))
        #expect(estimator.update(SensorSample(time: 0.01, acceleration: Vector3(.nan, 0, 9.81), magneticField: field)) == nil)
        #expect(estimator.update(SensorSample(time: 0.02, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(.infinity, 0, 0))) == nil)
        let next = estimator.update(SensorSample(time: 0.03, acceleration: Vector3(0, 0, 9.81), magneticField: field))
        #expect(next.map { abs($0.magneticHeading) < 1e-9 } == true)
    }

    @Test func accuracyGrowsWithNoiseAndDisturbance() {
        func accuracy(_ errors: SensorErrorModel, hardIronAfter: Double? = nil) -> Double {
            var rec = SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 80, pitch: 10), duration: 10)]),
                                         rate: 50, errors: errors)
            var estimator = HeadingEstimator()
            var last = -1.0
            while var s = rec.nextSample() {
                if let t = hardIronAfter, s.time > t { s.magneticField += Vector3(15, 0, 0) }
                if let e = estimator.update(s) { last = estimator.accuracy(for: e) }
            }
            return last
        }
        let quiet = accuracy(.noiseless), noisy = accuracy(SensorErrorModel(magnetometerNoise: 3, accelerometerNoise: 0.3))
        let disturbed = accuracy(.noiseless, hardIronAfter: 8)
        #expect(quiet > 0)
        #expect(noisy > quiet)
        #expect(disturbed > quiet + 5, "a 15 µT disturbance should cost degrees: \(disturbed) vs \(quiet)")
    }

    /// A calibrated board whose hard iron drifts by (2, −1.5, 1) µT over the 200 s
    /// after switch-on (the part warming, a current drawn more and more) while it
    /// turns at 0.3 °/s. The compass turns by up to 5°, and gyro fusion, which
    /// learns its field's reference from the readings and took the profile's
    /// 1.2 % fit at its word, said 1.3°: 40 % of the samples lay beyond 3σ. The
    /// strength's departure from the calibrated sphere
    /// (``MagneticEnvironmentMonitor/calibrationDeparture``) now widens it. (At
    /// 1 °/s and faster the board turns the offset across the field before the
    /// strength has shown all of it: docs/fusion.md, "Not yet done".)
    @Test func aHardIronDriftingAfterTheCalibrationWidensTheFusedAccuracy() {
        let rate = 0.3
        var sensors = SensorSuite.typical
        sensors.magnetometer.carriedFields = [.init(start: 20, field: Vector3(2, -1.5, 1), rise: 200)]
        var recording = ScenarioRecording(scenario: .levelTurn(.init(rate: rate)), sensors: sensors, rate: 100,
                                          includesGyroscope: true, seed: 7)
        var settings = HeadingEstimator.Settings()
        settings.calibrationStatus = CalibrationStatus(fitErrorPercent: 1.2, fieldStrength: 50, dip: 65)
        var pipeline = HeadingPipeline(settings: settings, headingFilter: 0)
        var valid = 0.0, beyond = 0.0, squares = 0.0
        while let s = recording.nextSample() {
            guard let h = pipeline.process(s), s.time >= 10, h.headingAccuracy >= 0 else { continue }
            let e = headingError(h.attitude, recording.truth.kinematics.attitude)
            valid += 1
            squares += e * e
            if e > 3 * h.headingAccuracy { beyond += 1 }
        }
        print("measured hard iron drifting, \(rate) °/s: RMSE \((squares / valid).squareRoot())°, beyond 3σ \(beyond / valid)")
        #expect(beyond / valid <= 0.01, "\(100 * beyond / valid) % of samples beyond 3 × headingAccuracy")
    }
}

