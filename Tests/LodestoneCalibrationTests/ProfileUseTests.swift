import Foundation
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

/// Using a profile: the status the pipeline gets, the accelerometer adapter,
/// device matching and the measured dip.
@Suite struct ProfileUseTests {
    @Test func statusComesFromTheQualityBlock() throws {
        var profile = try CalibrationProfileTests.sampleProfile()
        profile.quality.dip = 63.5
        let status = try #require(profile.calibrationStatus)
        #expect(status.fitErrorPercent == profile.quality.fitErrorPercent)
        #expect(status.fieldStrength == 49.8)   // the expected magnitude the fit was scaled to
        #expect(status.dip == 63.5)
        #expect(status.coveragePercent == profile.quality.coveragePercent)
        #expect(status.created == 1_796_000_000)

        // Without an expected magnitude corrected readings keep the fitted one.
        profile.quality.expectedMagnitude = nil
        #expect(profile.calibrationStatus?.fieldStrength == profile.quality.fittedMagnitude)

        profile.sensor = .accelerometer
        #expect(profile.calibrationStatus == nil)
    }

    @Test func dipRoundTripsAndIsChecked() throws {
        var profile = try CalibrationProfileTests.sampleProfile()
        profile.quality.dip = -12.25
        #expect(try CalibrationProfile(json: profile.jsonBytes()).quality.dip == -12.25)
        profile.quality.dip = 95
        #expect(throws: CalibrationProfileError.invalidValue(field: "quality.dip", reason: "95 is outside -90–90")) {
            try profile.jsonBytes()
        }
        profile.quality.dip = .nan
        #expect(throws: CalibrationProfileError.nonFinite(field: "quality.dip")) { try profile.validate() }
    }

    @Test func identitiesConflictOnlyWhereBothKnowAField() {
        typealias ID = CalibrationProfile.DeviceIdentity
        let profile = ID(driver: "hmc5843", name: "hmc5883l", uri: "local:")
        #expect(profile.conflicts(with: ID(name: "hmc5883l", uri: "ip:10.0.0.2")).isEmpty)  // URI not compared
        #expect(profile.conflicts(with: ID()).isEmpty)
        let other = profile.conflicts(with: ID(driver: "st_magn", name: "lis3mdl"))
        #expect(other.map(\.field) == ["device.driver", "device.name"])
        #expect(other.last?.value == "hmc5883l" && other.last?.other == "lis3mdl")
        #expect(ID(uri: "local:").isAnonymous)
        #expect(!ID(serial: "lid").isAnonymous)
    }

    /// Dip from synthetic readings: a field at 60° dip seen in many attitudes,
    /// some samples with linear acceleration that the median ignores.
    @Test func measuredDipIsTheMedianAngleBelowHorizontal() {
        var rng = RandomSource(seed: 7)
        let dip = 60.0 * Double.pi / 180
        let earth = Vector3(0, 45 * cos(dip), -45 * sin(dip))
        let gravity = Vector3(0, 0, 9.81)
        var fields: [Vector3] = [], accelerations: [Vector3] = []
        for k in 0..<400 {
            let q = rng.attitude()
            fields.append(q.conjugate.rotate(earth))
            let jolt = k % 5 == 0 ? rng.unitVector() * 4 : .zero
            accelerations.append(q.conjugate.rotate(gravity) + jolt)
        }
        let measured = MeasuredDip.median(fields: fields, accelerations: accelerations)
        #expect(abs((measured ?? 0) - 60) < 0.5)
        #expect(MeasuredDip.median(fields: [Vector3(1, 0, 0)], accelerations: [.zero]) == nil)
    }
}
