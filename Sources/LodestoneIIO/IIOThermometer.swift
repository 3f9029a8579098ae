import LodestoneCore

/// The gyroscope's temperature, from its device's `in_temp_raw`, `in_temp_offset`
/// and `in_temp_scale`: °C = (raw + offset) × scale / 1000, the scale being
/// milli-degrees per count (the IIO ABI). Gyro fusion learns how the bias moves
/// with it (``TemperatureBiasDrift``).
///
/// Read at most once a second: a temperature changes over seconds, and a sysfs
/// read costs as much as a whole sample. A read that fails ends the readings
/// (some drivers refuse raw reads while their buffer runs): the samples then
/// carry none, as from a part without a thermometer.
struct IIOThermometer {
    let device: IIODevice
    private let raw: IIODevice.Attribute
    private let offset: Double
    private let scale: Double
    /// The latest reading, °C.
    private(set) var latest: Double?
    /// Why the readings ended, if they did.
    private(set) var failure: String?
    private var lastReadNs: Int64?

    static let rawFile = "in_temp_raw"
    static let intervalNs: Int64 = 1_000_000_000

    /// The thermometer of `device`, or nil when it has no temperature channel with a scale.
    init?(device: IIODevice) {
        guard let raw = device.files[Self.rawFile],
              case .success(let scaleText) = device.read("in_temp_scale"),
              let scale = IIOText.double(scaleText), scale.isFinite, scale != 0 else { return nil }
        var offset = 0.0
        if device.has("in_temp_offset") {
            guard case .success(let text) = device.read("in_temp_offset"), let value = IIOText.double(text),
                  value.isFinite else { return nil }
            offset = value
        }
        self.device = device
        self.raw = raw
        self.offset = offset
        self.scale = scale
    }

    /// The temperature for a sample at `timeNs`: read anew once a second.
    mutating func temperature(atNs timeNs: Int64) -> Double? {
        guard failure == nil else { return nil }
        if let last = lastReadNs, timeNs &- last < Self.intervalNs, timeNs >= last { return latest }
        lastReadNs = timeNs
        switch device.readInteger(raw) {
        case .success(let count):
            let celsius = (Double(count) + offset) * scale / 1000
            guard SensorSample.temperatureRange.contains(celsius) else {
                failure = "\(device.displayName): \(Self.rawFile) reads \(count), \(celsius) °C with its scale and offset; not used"
                latest = nil
                return nil
            }
            latest = celsius
        case .failure(let e):
            failure = "\(device.displayName): reading \(Self.rawFile) failed (\(errorText(e.code))); the samples carry no temperature"
            latest = nil
        }
        return latest
    }
}
