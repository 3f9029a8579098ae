import Foundation
import LodestoneCalibration
import LodestoneCore
import LodestoneTestSupport
import Testing
@testable import LodestoneCalibrationStore

/// Saving a hard-iron update never overwrites a profile that changed since it was loaded.
@Suite struct ProfileUpdateSavingTests {
    static func moved(_ p: CalibrationProfile, by d: Vector3) -> CalibrationProfile {
        var q = p
        q.parameters.offset += d
        q.quality.update = .init(method: "hardIronTracking", time: "2026-12-01T10:00:00Z",
                                 previousOffset: [p.parameters.offset.x, p.parameters.offset.y, p.parameters.offset.z],
                                 previousFitErrorPercent: 7)
        return q
    }

    @Test func savesOverTheLoadedProfileOnly() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("m.json")
        let loaded = CalibrationProfileStoreTests.profile(device: .init(name: "x"))
        try CalibrationProfileStore.save(loaded, to: path)
        let first = Self.moved(loaded, by: Vector3(5, 0, 0))
        #expect(CalibrationProfileStore.saveUpdate(first, replacing: loaded, at: path).isSaved)
        #expect(try CalibrationProfileStore.load(path: path) == first)
        // A second update starts from the first: the file holds it, so it is saved too.
        let second = Self.moved(first, by: Vector3(0, 1, 0))
        #expect(CalibrationProfileStore.saveUpdate(second, replacing: first, at: path).isSaved)

        // Someone recalibrated meanwhile: the new file is left alone.
        var fresh = loaded
        fresh.created = "2026-12-02T08:00:00Z"
        try CalibrationProfileStore.save(fresh, to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let third = Self.moved(second, by: Vector3(0, 0, 1))
        let result = CalibrationProfileStore.saveUpdate(third, replacing: second, at: path)
        #expect(!result.isSaved)
        #expect(result.sentence == "not saved: \(path) has changed since it was loaded (made 2026-12-02T08:00:00Z); it is left as it is")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // The file is gone: nothing is written in its place.
        try FileManager.default.removeItem(atPath: path)
        let gone = CalibrationProfileStore.saveUpdate(third, replacing: fresh, at: path)
        #expect(!gone.isSaved)
        #expect(gone.sentence.contains("cannot be read back"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
