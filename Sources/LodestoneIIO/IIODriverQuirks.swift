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
