#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibrationStore
import LodestoneIIO

extension SourceDevices {
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
        self.init(magnetometer: identity(metadata.magnetometer), accelerometer: identity(metadata.accelerometer))
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
