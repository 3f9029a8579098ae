import LodestoneCore
import LodestoneSimulation
import Testing

/// `HeadingEstimator.replaceCalibration`: a running pipeline takes a new
/// magnetometer calibration without starting again.
@Suite struct ReplaceCalibrationTests {
    static let rightOffset = Vector3(20, -15, 35)
    static let wrongOffset = Vector3(28, -20, 41)

    static func recording(gyro: Bool) -> SyntheticRecording {
        var errors = SensorErrorModel.typical
        errors.hardIron = rightOffset
        return SyntheticRecording(profile: .demo, rate: 50, errors: errors, includesGyroscope: gyro, seed: 7)
    }

    static func settings(_ offset: Vector3, fusion: FusionMode) -> HeadingEstimator.Settings {
        HeadingEstimator.Settings(fusion: fusion, calibration: MagneticCalibration(hardIron: offset),
                                  calibrationStatus: CalibrationStatus(fitErrorPercent: 1, fieldStrength: 50))
    }

    /// Headings (time → magnetic heading), with the calibration replaced at `switchTime` by `replacement`.
    static func run(gyro: Bool, fusion: FusionMode, start: Vector3, replacement: Vector3?, at switchTime: Double)
        -> [(time: Double, heading: Double, truth: Double)] {
        var r = recording(gyro: gyro)
        var estimator = HeadingEstimator(settings: settings(start, fusion: fusion))
        var out: [(Double, Double, Double)] = []
        var switched = false
        while let s = r.nextSample() {
            if !switched, s.time >= switchTime, let replacement {
                estimator.replaceCalibration(MagneticCalibration(hardIron: replacement),
                                             status: CalibrationStatus(fitErrorPercent: 1, fieldStrength: 50))
                switched = true
            }
            guard let e = estimator.update(s) else { continue }
            out.append((s.time, e.magneticHeading, r.truth.heading(of: .unitY)))
        }
        return out
    }

    /// Replacing the calibration by the same one changes no heading.
    @Test(arguments: [FusionMode.ecompass, .ahrs])
    func theSameCalibrationChangesNothing(fusion: FusionMode) {
        let plain = Self.run(gyro: true, fusion: fusion, start: Self.rightOffset, replacement: nil, at: 0)
        let replaced = Self.run(gyro: true, fusion: fusion, start: Self.rightOffset, replacement: Self.rightOffset, at: 17)
        #expect(plain.count == replaced.count)
        #expect(zip(plain, replaced).allSatisfy { $0.heading == $1.heading })
    }

    /// Compass mode: the smoothed field is mapped to the new calibration, so the
    /// heading is right from the next sample, as if it had been right all along.
    @Test func compassHeadingIsRightAtOnce() {
        // At t = 12 s the demo holds still (heading 120°, pitch 20°, roll −10°).
        let right = Self.run(gyro: false, fusion: .ecompass, start: Self.rightOffset, replacement: nil, at: 0)
        let fixed = Self.run(gyro: false, fusion: .ecompass, start: Self.wrongOffset, replacement: Self.rightOffset, at: 12)
        let before = fixed.last { $0.time < 12 }!, after = fixed.first { $0.time >= 12 }!
        let reference = right.first { $0.time >= 12 }!
        let wrongError = abs(Angle.difference(from: before.truth, to: before.heading))
        let jump = abs(Angle.difference(from: reference.heading, to: after.heading))
        print("measured replaceCalibration (compass): error \(wrongError)° before, \(abs(Angle.difference(from: after.truth, to: after.heading)))° on the next sample; \(jump)° from a run calibrated right all along")
        #expect(wrongError > 5)
        #expect(jump < 0.2)
    }

    /// Gyro fusion: the attitude and the learned gyro bias survive the change;
    /// the compass then pulls the heading right.
    @Test func fusionKeepsAttitudeAndBias() throws {
        var r = Self.recording(gyro: true)
        var estimator = HeadingEstimator(settings: Self.settings(Self.wrongOffset, fusion: .ahrs))
        while let s = r.nextSample(), s.time < 20 { _ = estimator.update(s) }
        let attitude = estimator.fusion.attitude, bias = estimator.fusion.gyroBias
        let status = CalibrationStatus(fitErrorPercent: 0.8, fieldStrength: 50, coveragePercent: 90)
        estimator.replaceCalibration(MagneticCalibration(hardIron: Self.rightOffset), status: status)
        #expect(estimator.fusion.attitude == attitude)
        #expect(estimator.fusion.gyroBias == bias)
        #expect(estimator.fusion.isInitialized)
        #expect(estimator.settings.calibration.hardIron == Self.rightOffset)
        #expect(estimator.settings.calibrationStatus == status)
        #expect(estimator.monitor.calibration == status)
        var errors: [Double] = []
        while let s = r.nextSample() {
            guard let e = estimator.update(s), s.time > 40 else { continue }
            errors.append(abs(Angle.difference(from: r.truth.heading(of: .unitY), to: e.magneticHeading)))
        }
        let worst = try #require(errors.max())
        print("measured replaceCalibration (fusion): worst heading error \(worst)° from 20 s after the change")
        #expect(worst < 2)
    }

    /// The monitor: a wrong offset reads as a disturbance; after the change it ends by the usual rule.
    @Test func aDisturbanceFromTheWrongOffsetEnds() {
        var errors = SensorErrorModel.typical
        errors.hardIron = Self.rightOffset
        var r = SyntheticRecording(profile: .tumble(duration: 60), rate: 50, errors: errors, seed: 8)
        var estimator = HeadingEstimator(settings: Self.settings(Self.wrongOffset, fusion: .ecompass))
        var events: [(Double, MagneticEvent)] = []
        while let s = r.nextSample() {
            if s.time >= 30, estimator.settings.calibration.hardIron != Self.rightOffset {
                estimator.replaceCalibration(MagneticCalibration(hardIron: Self.rightOffset),
                                             status: CalibrationStatus(fitErrorPercent: 1, fieldStrength: 50))
            }
            _ = estimator.update(s)
            events += estimator.takeEvents().map { (s.time, $0) }
        }
        let starts = events.filter { if case .disturbanceStarted = $0.1 { return true } else { return false } }
        let ends = events.filter { if case .disturbanceEnded = $0.1 { return true } else { return false } }
        #expect(!starts.isEmpty)
        #expect(!estimator.monitor.isDisturbed)
        #expect(starts.allSatisfy { $0.0 < 30 }, "a disturbance started after the change: \(starts)")
        #expect(ends.contains { (30...32).contains($0.0) }, "\(ends.map(\.0))")
    }
}
