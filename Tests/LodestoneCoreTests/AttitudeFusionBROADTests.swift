import Foundation
import LodestoneTestSupport
import Testing
@testable import LodestoneCore

/// AttitudeFusion on real recordings: BROAD (Laidig, Caruso, Cereatti, Seel,
/// Data 6(7), 2021, CC BY 4.0), the 28.6 Hz CSVs in ../shared/data/broad/csv_decim10.
///
/// At a tenth of the recorded rate the gyro is integrated coarsely, so only the
/// slow trials and the attached-magnet trials are checked here, with bounds
/// well above what the full-rate benchmark reaches (tools/side-by-side.py)
/// and well below a plain tilt-compensated compass on the same data.
@Suite struct AttitudeFusionBROADTests {
    static let directory = "broad/csv_decim10"

    struct Result {
        var fusionRMSE = 0.0      // degrees, movement phase
        var compassRMSE = 0.0     // plain per-sample compass, same rows
        var inclinationRMSE = 0.0 // fusion's tilt, same rows
        var disturbedInMagnetWindow = 0.0 // fraction of 45–95 s flagged
    }

    static func run(_ trial: String) throws -> Result {
        let reason = SharedData.skipReason("\(directory)/\(trial).csv") ?? ""
        let url = try #require(SharedData.file("\(directory)/\(trial).csv"), Comment(rawValue: reason))
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n")
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        func column(_ name: String) throws -> Int {
            try #require(header.firstIndex(of: name), "\(url.path): no column \(name)")
        }
        let t = try column("t_s"), ax = try column("acc_x"), gx = try column("gyr_x"), mx = try column("mag_x")
        let qw = try column("q_w"), mv = try column("movement")

        var fusion = AttitudeFusion()
        var result = Result()
        var squares = 0.0, compassSquares = 0.0, tiltSquares = 0.0, count = 0, window = 0, flagged = 0
        var previous: Double?
        for (n, line) in lines.enumerated() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            func v(_ i: Int) throws -> Double {
                try #require(Double(f[i]), "\(url.path) line \(n + 2): bad number in column \(i + 1)")
            }
            let time = try v(t)
            let a = Vector3(try v(ax), try v(ax + 1), try v(ax + 2))
            let g = Vector3(try v(gx), try v(gx + 1), try v(gx + 2))
            let m = Vector3(try v(mx), try v(mx + 1), try v(mx + 2))
            fusion.update(acceleration: a, magneticField: m, angularRate: g, dt: previous.map { time - $0 } ?? 0)
            previous = time
            if (45..<95).contains(time) {
                window += 1
                if fusion.isMagneticallyDisturbed { flagged += 1 }
            }
            let truth = Quaternion(w: try v(qw), x: try v(qw + 1), y: try v(qw + 2), z: try v(qw + 3))
            guard try v(mv) != 0, truth.w.isFinite else { continue }
            let e = headingError(fusion.attitude, truth)
            let up = a.normalized, east = m.cross(up).normalized
            let compass = Quaternion(rotationMatrix: Matrix3(rows: east, up.cross(east), up))
            let ec = headingError(compass, truth)
            let tilt = inclinationError(fusion.attitude, truth)
            squares += e * e
            compassSquares += ec * ec
            tiltSquares += tilt * tilt
            count += 1
        }
        try #require(count > 1_000)
        result.fusionRMSE = (squares / Double(count)).squareRoot()
        result.compassRMSE = (compassSquares / Double(count)).squareRoot()
        result.inclinationRMSE = (tiltSquares / Double(count)).squareRoot()
        result.disturbedInMagnetWindow = Double(flagged) / Double(max(window, 1))
        return result
    }

    static let available = SharedData.file(directory) != nil || SharedData.isInCI

    @Test(.enabled(if: available, Comment(rawValue: SharedData.skipReason(directory) ?? "")),
          arguments: ["02_undisturbed_slow_rotation_B", "03_undisturbed_slow_rotation_C",
                      "05_undisturbed_slow_rotation_with_breaks_B", "12_undisturbed_slow_translation_C"])
    func undisturbedSlowTrials(trial: String) throws {
        let r = try Self.run(trial)
        print("\(trial): fusion \(r.fusionRMSE)°, compass \(r.compassRMSE)°")
        #expect(r.fusionRMSE < 3, "heading RMSE \(r.fusionRMSE)° (plain compass \(r.compassRMSE)°)")
        #expect(r.fusionRMSE < r.compassRMSE / 3)
    }

    /// Shaken to and fro by hand at several m/s²: the averaged accelerometer's
    /// length swings both ways, which is motion, not a sustained acceleration
    /// that could excuse a lasting tilt disagreement. The fusion that took it
    /// for one held a tilt error, and its heading was twice VQF's at the full
    /// rate; here, at a tenth of it, 1.84°.
    @Test(.enabled(if: available, Comment(rawValue: SharedData.skipReason(directory) ?? "")))
    func fastTranslationHoldsNoTiltError() throws {
        let r = try Self.run("16_undisturbed_fast_translation_B")
        print("16_undisturbed_fast_translation_B: fusion \(r.fusionRMSE)°, inclination \(r.inclinationRMSE)°")
        #expect(r.fusionRMSE < 1.7, "heading RMSE \(r.fusionRMSE)° (inclination \(r.inclinationRMSE)°)")
    }

    /// A magnet fixed to the IMU from about 35 s to 100 s: the compass is off by
    /// tens of degrees; the fusion must flag the field and keep the heading.
    @Test(.enabled(if: available, Comment(rawValue: SharedData.skipReason(directory) ?? "")),
          arguments: ["32_disturbed_attached_magnet_1cm", "34_disturbed_attached_magnet_3cm", "36_disturbed_attached_magnet_5cm"])
    func attachedMagnetTrials(trial: String) throws {
        let r = try Self.run(trial)
        print("\(trial): fusion \(r.fusionRMSE)°, compass \(r.compassRMSE)°, flagged \(r.disturbedInMagnetWindow)")
        #expect(r.fusionRMSE < 6, "heading RMSE \(r.fusionRMSE)° (plain compass \(r.compassRMSE)°)")
        #expect(r.fusionRMSE < r.compassRMSE / 5)
    }

    @Test(.enabled(if: available, Comment(rawValue: SharedData.skipReason(directory) ?? "")))
    func strongAttachedMagnetIsFlagged() throws {
        let r = try Self.run("32_disturbed_attached_magnet_1cm")
        #expect(r.disturbedInMagnetWindow > 0.8, "flagged \(r.disturbedInMagnetWindow) of the attached window")
    }
}
