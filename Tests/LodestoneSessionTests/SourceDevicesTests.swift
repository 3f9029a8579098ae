import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneJSON
import LodestoneLogs
import LodestoneSession
import Testing

/// Who made a log's samples, read from its header: what chooses its calibration profiles.
@Suite struct SourceDevicesTests {
    /// The devices of a log whose header's `device` is `json`.
    func devices(_ json: String) throws -> SourceDevices {
        SourceDevices(log: LogMetadata(rate: 100, device: try JSONParser.parse(json)))
    }

    @Test func aRecordingFromIIONamesEachSensor() throws {
        let d = try devices(#"{"uri":"local:","magnetometer":{"deviceName":"lis3mdl"},"accelerometer":{"deviceName":"lis3dh","label":"imu-1"}}"#)
        #expect(d.magnetometer == CalibrationProfile.DeviceIdentity(driver: nil, name: "lis3mdl", uri: "local:", serial: nil))
        #expect(d.accelerometer == CalibrationProfile.DeviceIdentity(driver: nil, name: "lis3dh", uri: "local:", serial: "imu-1"))
        #expect(d.identity(of: .accelerometer)?.name == "lis3dh")
    }

    @Test func aFlatIdentityStandsForBothSensors() throws {
        let d = try devices(#"{"driver":"inv-mpu6050","name":"mpu9250","serial":"A7","uri":"ip:10.0.0.2"}"#)
        let id = CalibrationProfile.DeviceIdentity(driver: "inv-mpu6050", name: "mpu9250", uri: "ip:10.0.0.2", serial: "A7")
        #expect(d.magnetometer == id && d.accelerometer == id)
    }

    @Test func aLogThatNamesNoDeviceHasNoIdentity() throws {
        #expect(SourceDevices(log: nil) == SourceDevices())
        #expect(SourceDevices(log: LogMetadata(rate: 100)) == SourceDevices())
        #expect(try devices(#"{"simulation":"tumble"}"#) == SourceDevices())
    }
}
