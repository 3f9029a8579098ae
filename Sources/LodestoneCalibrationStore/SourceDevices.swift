#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibration
import LodestoneIIO
import LodestoneLogs

/// Who made the samples: the identity of the magnetometer and of the
/// accelerometer, for naming and matching calibration profiles.
public struct SourceDevices: Hashable, Sendable {
    public typealias Identity = CalibrationProfile.DeviceIdentity

    public var magnetometer: Identity?
    public var accelerometer: Identity?

    public init(magnetometer: Identity? = nil, accelerometer: Identity? = nil) {
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
    }

    public func identity(of sensor: CalibrationProfile.SensorKind) -> Identity? {
        sensor == .magnetometer ? magnetometer : accelerometer
    }

    /// From a native log's `metadata.device`. Two shapes are understood:
    /// one recorded from IIO (`magnetometer`/`accelerometer` objects with
    /// `deviceName`, as `IIOSourceMetadata` encodes them, plus `uri`), and a
    /// flat identity (`driver`, `name`, `serial` or `label`, `uri`) that then
    /// stands for both sensors. Anything else (a simulation, a plain CSV) has no identity.
    public init(log metadata: LogMetadata?) {
        guard let device = metadata?.device else { return }
        let uri = device["uri"]?.stringValue
        func identity(_ object: JSONValue?) -> Identity? {
            guard let object else { return nil }
            let id = Identity(driver: object["driver"]?.stringValue,
                              name: object["name"]?.stringValue ?? object["deviceName"]?.stringValue,
                              uri: object["uri"]?.stringValue ?? uri,
                              serial: object["serial"]?.stringValue ?? object["label"]?.stringValue)
            return id.isAnonymous ? nil : id
        }
        let flat = identity(device)
        magnetometer = identity(device["magnetometer"]) ?? flat
        accelerometer = identity(device["accelerometer"]) ?? flat
    }

    /// From an open IIO source. The driver is read from sysfs for a local
    /// context (`…/iio:deviceN/../driver`); the label, when the device tree
    /// gives one, stands in for a serial number.
    public init(iio source: IIOSensorSource) {
        let metadata = source.metadata
        let listing = (try? IIODeviceCatalog.list(uri: metadata.uri)) ?? []
        func identity(_ info: IIOSensorInfo) -> Identity {
            let label = listing.first { $0.id == info.deviceID }?.label
            let driver = metadata.uri.hasPrefix("local:") ? Self.localDriver(deviceID: info.deviceID) : nil
            return Identity(driver: driver, name: info.deviceName, uri: metadata.uri, serial: label)
        }
        magnetometer = identity(metadata.magnetometer)
        accelerometer = identity(metadata.accelerometer)
    }

    /// The kernel driver bound to the parent of `/sys/bus/iio/devices/ID`, if any.
    static func localDriver(deviceID: String) -> String? {
        guard let resolved = realpath("/sys/bus/iio/devices/\(deviceID)", nil) else { return nil }
        defer { free(resolved) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(String(cString: resolved) + "/../driver", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.split(separator: "/").last.map(String.init)
    }
}
