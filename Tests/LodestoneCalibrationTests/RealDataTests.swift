import LodestoneCore
import Testing
@testable import LodestoneCalibration

/// Fits on the real recordings in `../shared/data`. Expected offsets are the
/// data READMEs' own fits (made with other tools), so they check this code
/// independently; bounds are loose enough for method differences. The figures
/// measured are in docs/calibration.md ("Real recordings").
@Suite struct RealDataTests {
    static let sunsided = "hmc5883l-mpu6050-sunsided/full-sphere_hmc5883l.csv"
    static let sunsidedTurn = "hmc5883l-mpu6050-sunsided/rotate-ccw-around-z-pointing-up_hmc5883l.csv"
    static let ckMag = "acc-mag-calibration-ckexplorer/acc_mag_log.csv"
    static let ckAcc = "acc-mag-calibration-ckexplorer/acc_log.csv"
    static func broad(_ trial: String) -> String { "broad/csv_decim10/\(trial).csv" }

    let fitter = CalibrationFitter(settings: .magnetometer)

    /// HMC5883L counts at 1090 LSB/G → µT. README: centre ≈ (−0.007, −0.105, +0.020) G.
    @Test(.enabled(if: ReferenceData.available(sunsided), "needs ../shared/data/\(sunsided)"))
    func sunsidedFullSphere() throws {
        let fields = try ReferenceData.rows(Self.sunsided).map { Vector3($0[4], $0[5], $0[6]) * (100.0 / 1090) }
        let fit = try fitter.fit(fields)
        #expect(fit.model == .full)
        #expect((fit.offset - Vector3(-0.7, -10.5, 2.0)).length < 1)
        #expect(fit.fitErrorPercent < 1)
        #expect(fit.residualRMS < 0.5)
        #expect((45...60).contains(fit.fittedMagnitude))
        #expect(fit.coveragePercent > 75)
        #expect(fit.grade == .good)
        // The README's radii (0.56/0.53/0.46 G) differ by ~20 %: a real soft-iron/gain correction.
        let radii = fit.ellipsoid.radii
        #expect(radii.z / radii.x > 1.15)
    }

    /// Two flat turns about z: a planar ring, refused with a coverage reason.
    @Test(.enabled(if: ReferenceData.available(sunsidedTurn), "needs ../shared/data/\(sunsidedTurn)"))
    func sunsidedTurnAboutZIsRefused() throws {
        let fields = try ReferenceData.rows(Self.sunsidedTurn).map { Vector3($0[4], $0[5], $0[6]) * (100.0 / 1090) }
        #expect(throws: CalibrationRejection.self) { try fitter.fit(fields) }
        do { _ = try fitter.fit(fields) } catch {
            if case .insufficientCoverage = error {} else { Issue.record("got \(error)") }
        }
    }

    /// Gauss → µT. README: centre ≈ (0.148, 0.390, −0.059) G, radii 0.298–0.325 G.
    @Test(.enabled(if: ReferenceData.available(ckMag), "needs ../shared/data/\(ckMag)"))
    func ckExplorerLargeHardIron() throws {
        let fields = try ReferenceData.rows(Self.ckMag).map { Vector3($0[3], $0[4], $0[5]) * 100 }
        let fit = try fitter.fit(fields)
        #expect(fit.model == .full)
        #expect((fit.offset - Vector3(14.8, 39.0, -5.9)).length < 1.5)
        #expect(fit.fitErrorPercent < 2)
        #expect((29...33).contains(fit.fittedMagnitude))
        // The offset is larger than the field: raw |B| spans roughly 10–90 µT.
        let raw = fields.map(\.length)
        #expect(raw.max()! > 2.5 * raw.min()!)
        // After correction every sample is within a few µT of the fitted magnitude.
        #expect(fit.residuals.maximumResidual < 3)
    }

    /// BROAD attached magnet, inside t = 45–95 s. README offsets (its own sphere fits):
    /// 1 cm (−9, −1, +57), 3 cm (−2, +1, +14), 5 cm (0, 0, −6) µT; radius ≈ 44 µT.
    @Test(.enabled(if: ReferenceData.available(broad("32_disturbed_attached_magnet_1cm")), "needs ../shared/data/broad"),
          arguments: [("32_disturbed_attached_magnet_1cm", Vector3(-9, -1, 57)),
                      ("34_disturbed_attached_magnet_3cm", Vector3(-2, 1, 14)),
                      ("36_disturbed_attached_magnet_5cm", Vector3(0, 0, -6))])
    func broadAttachedMagnet(trial: String, offset: Vector3) throws {
        let rows = try ReferenceData.rows(Self.broad(trial))
        let fields = rows.filter { (45...95).contains($0[0]) }.map { Vector3($0[7], $0[8], $0[9]) }
        let fit = try fitter.fit(fields)
        #expect((fit.offset - offset).length < 3, "\(trial): \(fit.offset)")
        #expect(abs(fit.fittedMagnitude - 44) < 2)
        #expect(fit.fitErrorPercent < 3)
        #expect(fit.residuals.outlierCount < fields.count / 50)
        // The whole 1 cm log mixes two offsets (magnet on, magnet off): refused.
        if trial.hasPrefix("32") {
            #expect(throws: CalibrationRejection.self) { try fitter.fit(rows.map { Vector3($0[7], $0[8], $0[9]) }) }
        }
    }

    /// BROAD's sensor is calibrated: whole undisturbed trial, offset near zero,
    /// fit error near its noise (0.7 µT per axis ≈ 1.6 %).
    @Test(.enabled(if: ReferenceData.available(broad("02_undisturbed_slow_rotation_B")), "needs ../shared/data/broad"))
    func broadUndisturbed() throws {
        let rows = try ReferenceData.rows(Self.broad("02_undisturbed_slow_rotation_B"))
        let fit = try fitter.fit(rows.map { Vector3($0[7], $0[8], $0[9]) }, expectedMagnitude: 49.8)
        #expect(fit.model == .full)
        #expect(fit.offset.length < 1.5)
        #expect(fit.fitErrorPercent < 2.5)
        #expect(abs((fit.magnitudeRatio ?? 0) - 0.9) < 0.03) // README: |B| ≈ 44 µT vs WMM F = 49.8 µT
    }

    /// CK-Explorer accelerometer log (g, no timestamps, turned slowly): 100 Hz
    /// assumed, short rests (0.2 s window, ≥ 0.3 s). README sphere centre
    /// ≈ (−0.021, 0.009, 0.015) g.
    @Test(.enabled(if: ReferenceData.available(ckAcc), "needs ../shared/data/\(ckAcc)"))
    func ckExplorerAccelerometer() throws {
        let g = 9.80665
        let acc = try ReferenceData.rows(Self.ckAcc).map { Vector3($0[0], $0[1], $0[2]) * g }
        let times = acc.indices.map { Double($0) / 100 }
        let calibrator = AccelerometerCalibrator(detector: StillSegmentDetector(window: 0.2, minimumDuration: 0.3))
        let (fit, segments) = try calibrator.fit(times: times, accelerations: acc)
        #expect(segments.count >= 50)
        #expect((fit.offset / g - Vector3(-0.021, 0.009, 0.015)).length < 0.003)
        #expect(fit.fitErrorPercent < 0.3)
        let corrected = segments.map { fit.apply($0.meanAcceleration).length }
        #expect(corrected.allSatisfy { abs($0 - g) < 0.1 })
        // Raw, the rests' |a| spread further from g than after calibration.
        let rawWorst = segments.map { abs($0.meanAcceleration.length - g) }.max()!
        #expect(rawWorst > 2 * corrected.map { abs($0 - g) }.max()!)
    }
}
