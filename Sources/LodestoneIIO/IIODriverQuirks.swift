import LodestoneCore

/// Known driver deviations from the IIO ABI, by device name.
///
/// Each entry says what Lodestone corrects and why, so the correction can be
/// reported to the user (device listing, log header) rather than applied silently.
public struct IIODriverQuirk: Hashable, Sendable, Codable {
    /// Device names (the `name` attribute) the quirk applies to.
    public var deviceNames: [String]
    public var kind: IIOSensorKind
    /// Multiplies the scale the driver reports.
    public var scaleCorrection: Double
    /// Raw value at which the axis saturates (ADC range), if narrower than the storage type.
    public var saturationLimit: Int64?
    /// Raw value the driver uses to mark an overflow, if any.
    public var overflowValue: Int64?
    public var note: String

    /// The table. Sources: Linux 6.12 drivers as summarized in `iio-layouts.md`.
    public static let table: [IIODriverQuirk] = [
        IIODriverQuirk(
            deviceNames: ["hmc5843", "hmc5883", "hmc5883l", "hmc5983"], kind: .magnetometer,
            scaleCorrection: 100, saturationLimit: 2047, overflowValue: -4096,
            note: "hmc5843 driver: in_magn_scale is 100× too small (10^7/gain nano-units); multiplied by 100"),
        IIODriverQuirk(
            deviceNames: ["ak8975"], kind: .magnetometer,
            scaleCorrection: 1, saturationLimit: 4096, overflowValue: nil,
            note: "ak8975: raw values clamp at ±4096"),
        IIODriverQuirk(
            deviceNames: ["ak8963", "AK8963", "ak09911"], kind: .magnetometer,
            scaleCorrection: 1, saturationLimit: 8190, overflowValue: nil,
            note: "ak8963/ak09911: raw values clamp at ±8190"),
    ]

    /// The quirk for a device name and sensor kind, if any.
    public static func quirk(deviceName: String?, kind: IIOSensorKind) -> IIODriverQuirk? {
        guard let name = deviceName else { return nil }
        return table.first { $0.kind == kind && $0.deviceNames.contains(name) }
    }
}

/// The inv_mpu6050 driver (MPU-9150/9250/9255) derives `in_magn_mount_matrix` from
/// the board matrix O (`in_accel_mount_matrix`) by swapping rows 0 and 1 and negating
/// row 2, i.e. it prints P·O with P = `0, 1, 0; 1, 0, 0; 0, 0, -1` (the AK magnetometer's
/// axes in the accelerometer's frame). Under the ABI's v_device = M · v_chip the
/// magnetometer needs O·P. The two agree when O commutes with P (O = identity, as on
/// most boards); otherwise, e.g. a board turned 90° in the device tree, the printed
/// matrix would put the field 180° off the accelerometer's frame. Linux 6.12,
/// `inv_mpu_magn_set_orient()`; see iio-layouts.md §2.6.
public enum InvensenseMagnetometerMatrix {
    public static let deviceNames = ["mpu9150", "mpu9250", "mpu9255"]
    /// AK8963/AK8975 axes in the MPU's accelerometer frame.
    public static let akAxes = Matrix3(0, 1, 0, 1, 0, 0, 0, 0, -1)
    public static let note = "inv_mpu6050 driver: in_magn_mount_matrix is P·O (accelerometer matrix O with rows 0 and 1 swapped and row 2 negated); the AK magnetometer needs O·P; using O·P"

    /// O·P when `printed` is the driver's P·O and that differs from O·P; nil when nothing needs correcting.
    public static func corrected(deviceName: String?, printed: Matrix3, accelerometer o: Matrix3?) -> Matrix3? {
        guard let name = deviceName, deviceNames.contains(name), let o else { return nil }
        let driver = akAxes * o, needed = o * akAxes
        guard printed.maxDifference(to: driver) < 1e-9, needed.maxDifference(to: driver) > 1e-9 else { return nil }
        return needed
    }
}
