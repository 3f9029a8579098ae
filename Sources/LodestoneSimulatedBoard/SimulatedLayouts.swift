import LodestoneCore
import LodestoneIIO

/// A board: parts plus free-standing triggers (an hrtimer trigger the user made in configfs).
public struct SimulatedLayout: Sendable {
    public var id: String
    public var summary: String
    public var parts: [SimulatedPart]
    /// Free-standing triggers: name → initial `sampling_frequency`.
    public var standaloneTriggers: [(name: String, samplingFrequency: String)]

    /// Every layout the tests cover.
    public static let all: [SimulatedLayout] = [lis3mdlLIS3DH, mpu9250, bmi160BMM150, hmc5883lMPU6050]

    public static func named(_ id: String) -> SimulatedLayout? { all.first { $0.id == id } }

    // Type strings as the drivers print them (iio-layouts.md §2).
    static let le16 = IIOScanType(parsing: "le:s16/16>>0")!
    static let be16 = IIOScanType(parsing: "be:s16/16>>0")!
    static let le12 = IIOScanType(parsing: "le:s12/16>>4")!
    static let le32 = IIOScanType(parsing: "le:s32/32>>0")!

    /// ST LIS3MDL (§2.2) + ST LIS3DH (§2.7) as two devices; the LIS3DH is mounted
    /// rotated on the board (a device-tree `mount-matrix`).
    public static let lis3mdlLIS3DH = SimulatedLayout(
        id: "lis3mdl-lis3dh", summary: "ST LIS3MDL magnetometer + ST LIS3DH accelerometer (separate devices)",
        parts: [
            SimulatedPart(
                name: "lis3mdl", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-001e",
                sensors: [SimulatedSensor(kind: .magnetometer, scaleText: ["0.000146", "0.000146", "0.000146"], sharedScale: false,
                                          scanIndex: [0, 1, 2], scanType: le16, rawLimit: 32767, mountMatrixFile: "mount_matrix")],
                files: ["sampling_frequency": "1", "sampling_frequency_available": "1 2 3 5 10 20 40 80",
                        "in_magn_scale_available": "0.000146 0.000292 0.000438 0.000584"],
                timestampIndex: 3, ownTrigger: "lis3mdl-trigger", rateFiles: ["sampling_frequency"]),
            SimulatedPart(
                name: "lis3dh", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-0018",
                sensors: [SimulatedSensor(kind: .accelerometer, scaleText: ["0.009806", "0.009806", "0.009806"], sharedScale: false,
                                          scanIndex: [0, 1, 2], scanType: le12, rawLimit: 2047,
                                          mountMatrix: Matrix3(0, 1, 0, -1, 0, 0, 0, 0, 1), mountMatrixFile: "mount_matrix")],
                files: ["sampling_frequency": "1", "sampling_frequency_available": "1 10 25 50 100 200 400 1600",
                        "in_accel_scale_available": "0.009806 0.019613 0.039226 0.117679"],
                timestampIndex: 3, ownTrigger: "lis3dh-trigger", rateFiles: ["sampling_frequency"]),
        ],
        standaloneTriggers: [])

    /// InvenSense MPU-9250 (§2.6): accel, gyro, temp and the AK8963 in one device,
    /// with the driver's `in_magn_mount_matrix` = `0, 1, 0; 1, 0, 0; 0, 0, -1`.
    public static let mpu9250 = mpu9250(boardMatrix: .identity)

    /// An MPU-9250 whose device tree gives the `mount-matrix` O: the driver prints O for
    /// accel and gyro and P·O for the magnetometer (P: the AK8963's axes), while the
    /// AK8963 really sits at O·P. Identical to ``mpu9250`` when O is the identity.
    public static func mpu9250(boardMatrix o: Matrix3) -> SimulatedLayout {
        let p = InvensenseMagnetometerMatrix.akAxes
        return SimulatedLayout(
            id: o == .identity ? "mpu9250" : "mpu9250-dt-rotated",
            summary: "InvenSense MPU-9250 (inv_mpu6050) with the AK8963 behind it, one device" + (o == .identity ? "" : ", device-tree mount-matrix \(IIOMountMatrix.format(o))"),
            parts: [
                SimulatedPart(
                    name: "mpu9250", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-0068",
                    sensors: [
                        SimulatedSensor(kind: .accelerometer, scaleText: ["0.000598", "0.000598", "0.000598"], sharedScale: true,
                                        scanIndex: [0, 1, 2], scanType: be16, rawLimit: 32767, mountMatrix: o, mountMatrixFile: "in_accel_mount_matrix"),
                        SimulatedSensor(kind: .gyroscope, scaleText: ["0.001064724", "0.001064724", "0.001064724"], sharedScale: true,
                                        scanIndex: [4, 5, 6], scanType: be16, rawLimit: 32767, mountMatrix: o, mountMatrixFile: "in_anglvel_mount_matrix"),
                        SimulatedSensor(kind: .magnetometer, scaleText: ["0.001500", "0.001781", "0.001652"], sharedScale: false,
                                        scanIndex: [7, 8, 9], scanType: be16, rawLimit: 32760,
                                        mountMatrix: o * p, printedMountMatrix: p * o, mountMatrixFile: "in_magn_mount_matrix"),
                    ],
                    extraChannels: [SimulatedExtraChannel(id: "temp", scanIndex: 3, scanType: be16, raw: 2100)],
                    files: ["sampling_frequency": "50", "sampling_frequency_available": "10 20 50 100 200 500",
                            "in_accel_scale_available": "0.000598 0.001196 0.002392 0.004785",
                            "in_anglvel_scale_available": "0.000133090 0.000266181 0.000532362 0.001064724",
                            "in_temp_offset": "12420", "in_temp_scale": "2.941176",
                            "in_accel_x_calibbias": "0", "in_accel_y_calibbias": "0", "in_accel_z_calibbias": "0",
                            "in_anglvel_x_calibbias": "0", "in_anglvel_y_calibbias": "0", "in_anglvel_z_calibbias": "0",
                            "in_accel_matrix": "0, 0, 0; 0, 0, 0; 0, 0, 0", "in_gyro_matrix": "0, 0, 0; 0, 0, 0; 0, 0, 0"],
                    timestampIndex: 10, ownTrigger: "mpu9250-dev0", rateFiles: ["sampling_frequency"]),
            ],
            standaloneTriggers: [])
    }

    /// Bosch BMI160 (§2.8, accel + gyro) + BMM150 (§2.4, 32-bit magnetometer).
    public static let bmi160BMM150 = SimulatedLayout(
        id: "bmi160-bmm150", summary: "Bosch BMI160 accelerometer/gyroscope + Bosch BMM150 magnetometer",
        parts: [
            SimulatedPart(
                name: "bmi160", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-0069",
                sensors: [
                    SimulatedSensor(kind: .accelerometer, scaleText: ["0.000598", "0.000598", "0.000598"], sharedScale: true,
                                    scanIndex: [7, 8, 9], scanType: le16, rawLimit: 32767, mountMatrixFile: "in_mount_matrix"),
                    SimulatedSensor(kind: .gyroscope, scaleText: ["0.001065", "0.001065", "0.001065"], sharedScale: true,
                                    scanIndex: [4, 5, 6], scanType: le16, rawLimit: 32767, mountMatrixFile: "in_mount_matrix"),
                ],
                files: ["in_accel_sampling_frequency": "100.000000", "in_anglvel_sampling_frequency": "100.000000",
                        "in_accel_sampling_frequency_available": "0.78125 1.5625 3.125 6.25 12.5 25 50 100 200 400 800 1600",
                        "in_anglvel_sampling_frequency_available": "25 50 100 200 400 800 1600 3200",
                        "in_accel_scale_available": "0.000598 0.001197 0.002394 0.004788",
                        "in_anglvel_scale_available": "0.001065 0.000532 0.000266 0.000133 0.000066"],
                timestampIndex: 10, ownTrigger: "bmi160-dev0", rateFiles: ["in_accel_sampling_frequency"]),
            SimulatedPart(
                name: "bmm150_magn", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-0013",
                sensors: [SimulatedSensor(kind: .magnetometer, scaleText: ["0.000625", "0.000625", "0.000625"], sharedScale: true,
                                          scanIndex: [0, 1, 2], scanType: le32, rawLimit: 1 << 20, mountMatrixFile: "in_mount_matrix")],
                files: ["in_magn_sampling_frequency": "10", "sampling_frequency_available": "2 6 8 10 15 20 25 30",
                        "in_magn_x_oversampling_ratio": "9", "in_magn_y_oversampling_ratio": "9", "in_magn_z_oversampling_ratio": "15"],
                timestampIndex: 3, ownTrigger: "bmm150_magn-dev1", rateFiles: ["in_magn_sampling_frequency"]),
        ],
        standaloneTriggers: [])

    /// Honeywell HMC5883L (§2.3: shared scale 100× too small, scan order X, Z, Y,
    /// big-endian, no own trigger) + InvenSense MPU-6050 (as on GY-86 boards), with
    /// an hrtimer trigger the user created in configfs.
    public static let hmc5883lMPU6050 = SimulatedLayout(
        id: "hmc5883l-mpu6050", summary: "Honeywell HMC5883L magnetometer + InvenSense MPU-6050 (GY-86 style), hrtimer trigger",
        parts: [
            SimulatedPart(
                name: "hmc5883l", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-001e",
                sensors: [SimulatedSensor(kind: .magnetometer, scaleText: ["0.000009174", "0.000009174", "0.000009174"], sharedScale: true,
                                          physicalScaleFactor: 100, scanIndex: [0, 2, 1], scanType: be16, rawLimit: 2047,
                                          mountMatrixFile: "in_mount_matrix")],
                files: ["in_magn_sampling_frequency": "15.000000",
                        "sampling_frequency_available": "0.750000 1.500000 3.0 7.500000 15.0 30.0 75.0",
                        "scale_available": "0.000007299 0.000009174 0.000012195 0.000015152 0.000022727 0.000025641 0.000030303 0.000043478",
                        "in_magn_meas_conf": "normal", "in_magn_meas_conf_available": "normal positivebias negativebias"],
                timestampIndex: 3, ownTrigger: nil, rateFiles: ["in_magn_sampling_frequency"]),
            SimulatedPart(
                name: "mpu6050", parentPath: "platform/soc/3f804000.i2c/i2c-1/1-0068",
                sensors: [
                    SimulatedSensor(kind: .accelerometer, scaleText: ["0.000598", "0.000598", "0.000598"], sharedScale: true,
                                    scanIndex: [0, 1, 2], scanType: be16, rawLimit: 32767, mountMatrixFile: "in_accel_mount_matrix"),
                    SimulatedSensor(kind: .gyroscope, scaleText: ["0.001064724", "0.001064724", "0.001064724"], sharedScale: true,
                                    scanIndex: [4, 5, 6], scanType: be16, rawLimit: 32767, mountMatrixFile: "in_anglvel_mount_matrix"),
                ],
                extraChannels: [SimulatedExtraChannel(id: "temp", scanIndex: 3, scanType: be16, raw: 2100)],
                files: ["sampling_frequency": "50", "sampling_frequency_available": "10 20 50 100 200 500",
                        "in_accel_scale_available": "0.000598 0.001196 0.002392 0.004785",
                        "in_temp_offset": "12420", "in_temp_scale": "2.941176"],
                timestampIndex: 7, ownTrigger: "mpu6050-dev1", rateFiles: ["sampling_frequency"]),
        ],
        standaloneTriggers: [(name: "lodestone", samplingFrequency: "100")])
}
