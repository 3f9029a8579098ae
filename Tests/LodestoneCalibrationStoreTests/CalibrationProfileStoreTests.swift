import Foundation
import LodestoneCalibration
import LodestoneCore
import LodestoneTestSupport
import Testing
@testable import LodestoneCalibrationStore

@Suite struct CalibrationProfileStoreTests {
    typealias ID = CalibrationProfile.DeviceIdentity

    static func profile(sensor: CalibrationProfile.SensorKind = .magnetometer, device: ID) -> CalibrationProfile {
        let magnetometer = sensor == .magnetometer
        return CalibrationProfile(
            sensor: sensor, device: device, created: "2026-11-30T04:30:00Z",
            parameters: .init(unit: sensor.unit, offset: Vector3(1, -2, 3), matrix: Matrix3(diagonal: Vector3(1.01, 0.99, 1))),
            quality: .init(model: .full, grade: .good, fitErrorPercent: 0.8, residualRMS: 0.4,
                           fittedMagnitude: magnetometer ? 48 : 9.8, expectedMagnitude: magnetometer ? 49.8 : 9.80665,
                           coveragePercent: 90, sampleCount: 900, outlierCount: 2))
    }

    @Test func namesComeFromTheIdentity() {
        let store = CalibrationProfileStore(directory: "cal")
        #expect(store.path(for: ID(driver: "hmc5843", name: "hmc5883l", uri: "local:"), sensor: .magnetometer)
                == "cal/hmc5843-hmc5883l-magnetometer.json")
        #expect(store.path(for: ID(driver: "bmi160", name: "bmi160"), sensor: .accelerometer) == "cal/bmi160-accelerometer.json")
        #expect(store.path(for: ID(name: "lis3mdl", serial: "lid sensor/2"), sensor: .magnetometer)
                == "cal/lis3mdl-lid_sensor_2-magnetometer.json")
        #expect(store.path(for: ID(name: "../../etc"), sensor: .magnetometer) == "cal/_._.._etc-magnetometer.json")
        #expect(store.path(for: ID(uri: "local:"), sensor: .magnetometer) == nil)
    }

    @Test func savesAtomicallyAndLoadsBack() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("calibration/x-magnetometer.json")
        let p = Self.profile(device: ID(name: "x"))
        try CalibrationProfileStore.save(p, to: path)   // creates calibration/
        #expect(try CalibrationProfileStore.load(path: path, sensor: .magnetometer, device: ID(name: "x")) == p)
    }

    @Test func everyProblemNamesTheFile() throws {
        let dir = TemporaryDirectory()
        func expectError(_ path: String, sensor: CalibrationProfile.SensorKind? = nil, device: ID? = nil,
                         _ fragments: [String], access: Bool = false) {
            do {
                _ = try CalibrationProfileStore.load(path: path, sensor: sensor, device: device)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.description.hasPrefix(path + ": "), "\(error)")
                for f in fragments { #expect(error.description.contains(f), "\(error) lacks \(f)") }
                #expect(error.isAccessProblem == access)
            }
        }
        expectError(dir.path("missing.json"), ["No such file", "lodestone calibrate"], access: true)
        let good = dir.path("good.json")
        try CalibrationProfileStore.save(Self.profile(device: ID(driver: "hmc5843", name: "hmc5883l")), to: good)
        expectError(good, sensor: .accelerometer, ["field sensor is \"magnetometer\"", "accelerometer profile is needed"])
        expectError(good, device: ID(name: "lis3mdl"), ["field device.name is \"hmc5883l\"", "\"lis3mdl\"", "another device"])
        let text = try String(contentsOfFile: good, encoding: .utf8)
        let broken = dir.path("broken.json")
        try String(text.prefix(text.count / 2)).write(toFile: broken, atomically: false, encoding: .utf8)
        expectError(broken, ["not a valid JSON", "cut short"])
        let huge = dir.path("huge.json")
        try Data(count: CalibrationProfileStore.maximumFileSize + 10).write(to: URL(fileURLWithPath: huge))
        expectError(huge, ["too large"])
        let singular = dir.path("singular.json")
        try text.replacingOccurrences(of: "0.99", with: "0").write(toFile: singular, atomically: false, encoding: .utf8)
        expectError(singular, ["parameters.matrix", "positive-definite"])
    }

    @Test func automaticMatchingFindsOnlyThisDevicesProfile() throws {
        let dir = TemporaryDirectory()
        let store = CalibrationProfileStore(directory: dir.directory)
        let device = ID(driver: "hmc5843", name: "hmc5883l", uri: "local:")
        #expect(try store.automaticProfile(for: device, sensor: .magnetometer) == nil)

        let path = try #require(store.path(for: device, sensor: .magnetometer))
        try CalibrationProfileStore.save(Self.profile(device: ID(driver: "hmc5843", name: "hmc5883l", uri: "ip:10.1.1.1")), to: path)
        let found = try #require(try store.automaticProfile(for: device, sensor: .magnetometer))
        #expect(found.path == path && found.profile.parameters.offset == Vector3(1, -2, 3))
        #expect(try store.automaticProfile(for: device, sensor: .accelerometer) == nil)

        // A file in the device's place that says it is for another device, or for none.
        try CalibrationProfileStore.save(Self.profile(device: ID(driver: "hmc5843", name: "hmc5983")), to: path)
        #expect(throws: CalibrationFileError.self) { try store.automaticProfile(for: device, sensor: .magnetometer) }
        try CalibrationProfileStore.save(Self.profile(device: ID()), to: path)
        #expect(throws: CalibrationFileError.self) { try store.automaticProfile(for: device, sensor: .magnetometer) }
        // An accelerometer profile under the magnetometer's name.
        try CalibrationProfileStore.save(Self.profile(sensor: .accelerometer, device: device), to: path)
        #expect(throws: CalibrationFileError.self) { try store.automaticProfile(for: device, sensor: .magnetometer) }
    }
}
