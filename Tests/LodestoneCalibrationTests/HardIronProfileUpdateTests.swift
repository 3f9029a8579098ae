import Foundation
import LodestoneCore
import Testing
@testable import LodestoneCalibration

/// A profile updated by online hard-iron tracking: what changes, what stays,
/// and the `quality.update` note in the file.
@Suite struct HardIronProfileUpdateTests {
    static func update(previous: Vector3, new: Vector3, matrix: Matrix3, fitErrorPercent: Double = 0.9) -> HardIronUpdate {
        let p = HardIronTracker.Proposal(offset: new, centre: matrix * new, radius: 49.5, fitErrorPercent: fitErrorPercent,
                                         previousFitErrorPercent: 8.25, residualRMS: 0.45, outlierCount: 2, sampleCount: 700,
                                         coveragePercent: 62, uncertainty: 0.04, change: 9)
        return HardIronUpdate(time: 240, previous: MagneticCalibration(hardIron: previous, softIron: matrix),
                              calibration: MagneticCalibration(hardIron: new, softIron: matrix), proposal: p)
    }

    @Test func keepsTheMatrixAndNotesTheChange() throws {
        let original = try CalibrationProfileTests.sampleProfile()
        let new = original.parameters.offset + Vector3(8, -5, 6)
        let u = Self.update(previous: original.parameters.offset, new: new, matrix: original.parameters.matrix)
        let updated = original.applying(u, time: "2026-12-01T10:00:00Z")
        #expect(updated.parameters.offset == new)
        #expect(updated.parameters.matrix == original.parameters.matrix)
        #expect(updated.created == original.created)
        #expect(updated.device == original.device)
        #expect(updated.quality.model == original.quality.model)
        #expect(updated.quality.expectedMagnitude == original.quality.expectedMagnitude)
        #expect(updated.quality.dip == original.quality.dip)
        #expect(updated.quality.fitErrorPercent == 0.9)
        #expect(updated.quality.coveragePercent == 62)
        #expect(updated.quality.sampleCount == 700)
        #expect(updated.quality.outlierCount == 2)
        // The fit error (0.9 %) keeps "good"; the refit's 62 % coverage is judged by the tracker's rules.
        #expect(original.quality.grade == .good)
        #expect(updated.quality.grade == .good)
        // A fit error above 2.5 % lowers it.
        let rough = original.applying(Self.update(previous: original.parameters.offset, new: new,
                                                  matrix: original.parameters.matrix, fitErrorPercent: 2.8),
                                      time: "2026-12-01T10:00:00Z")
        #expect(rough.quality.grade == .acceptable)
        let note = try #require(updated.quality.update)
        #expect(note.method == "hardIronTracking")
        #expect(note.time == "2026-12-01T10:00:00Z")
        let o = original.parameters.offset
        #expect(note.previousOffset == [o.x, o.y, o.z])
        #expect(note.previousFitErrorPercent == 8.25)
        // The status the pipeline gets: the update's fit error and coverage, the profile's field and date.
        let status = try #require(updated.calibrationStatus)
        #expect(status.fitErrorPercent == 0.9)
        #expect(status.fieldStrength == original.calibrationStatus?.fieldStrength)
        #expect(status.created == original.calibrationStatus?.created)
    }

    @Test func roundTripsThroughJSON() throws {
        let original = try CalibrationProfileTests.sampleProfile()
        let u = Self.update(previous: original.parameters.offset, new: original.parameters.offset + Vector3(1, 2, 3),
                            matrix: original.parameters.matrix)
        let updated = original.applying(u, time: "2026-12-01T10:00:00Z")
        let data = try updated.jsonBytes()
        #expect(try CalibrationProfile(json: data) == updated)
        let object = try #require(JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        let note = try #require((object["quality"] as? [String: Any])?["update"] as? [String: Any])
        #expect(note["method"] as? String == "hardIronTracking")
        #expect((note["previousOffset"] as? [Double])?.count == 3)
        // A profile as calibrate made it has no note.
        let plain = try #require(JSONSerialization.jsonObject(with: Data(original.jsonBytes())) as? [String: Any])
        #expect((plain["quality"] as? [String: Any])?["update"] == nil)
    }

    /// A bad note is refused with its field named, like every other field.
    @Test func badNotesAreRefused() throws {
        let original = try CalibrationProfileTests.sampleProfile()
        let u = Self.update(previous: original.parameters.offset, new: original.parameters.offset + Vector3(1, 2, 3),
                            matrix: original.parameters.matrix)
        let good = try #require(JSONSerialization.jsonObject(with: Data(original.applying(u, time: "2026-12-01T10:00:00Z").jsonBytes()))
            as? [String: Any])
        func refused(_ change: (inout [String: Any]) -> Void) -> String {
            var o = good, q = o["quality"] as! [String: Any], n = q["update"] as! [String: Any]
            change(&n)
            q["update"] = n
            o["quality"] = q
            do {
                _ = try CalibrationProfile(json: JSONSerialization.data(withJSONObject: o))
                return "accepted"
            } catch {
                return String(describing: error)
            }
        }
        #expect(refused { $0["time"] = "yesterday" }.contains("quality.update.time"))
        #expect(refused { $0["previousOffset"] = [1, 2] }.contains("quality.update.previousOffset"))
        #expect(refused { $0["previousOffset"] = "1,2,3" }.contains("quality.update.previousOffset"))
        #expect(refused { $0["previousFitErrorPercent"] = -1 }.contains("quality.update.previousFitErrorPercent"))
        #expect(refused { $0["method"] = nil }.contains("quality.update.method"))
        #expect(refused { $0["method"] = "" }.contains("quality.update.method"))
        #expect(refused { $0["note"] = "ignored" } == "accepted")
    }
}
