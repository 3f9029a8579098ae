import LodestoneCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What can go wrong reading IIO sensors, with text that says what to do.
public enum IIOSourceError: SensorSourceError, Equatable {
    /// libiio could not create a context for the URI.
    case contextUnavailable(uri: String, errno: Int32)
    /// No device has the channels of a sensor.
    case sensorNotFound(kind: IIOSensorKind, uri: String, lookedFor: [String], found: [String])
    /// A pinned device does not exist or lacks the channels.
    case pinnedDeviceNotFound(kind: IIOSensorKind, pin: String, uri: String, found: [String])
    /// A file cannot be opened for lack of permission.
    case permissionDenied(uri: String, device: String, file: String)
    /// A read or write failed (EIO, ENODEV, a dropped connection …).
    case io(uri: String, device: String, operation: String, errno: Int32)
    /// A buffer delivered nothing within the timeout.
    case timeout(uri: String, device: String, seconds: Double)
    /// The configuration asks for something the devices cannot do.
    case unsupported(String)

    /// Transient errors may clear by themselves: the runner backs off and calls again,
    /// and the source reopens the devices.
    public var isTransient: Bool {
        switch self {
        case .io, .timeout: return true
        case .contextUnavailable(_, let e): return e != EACCES && e != EPERM
        case .sensorNotFound, .pinnedDeviceNotFound, .permissionDenied, .unsupported: return false
        }
    }

    public var description: String {
        switch self {
        case let .contextUnavailable(uri, e):
            return "cannot open IIO context \(uri): \(errorText(e)). Check the URI (local:, or ip:HOST with iiod running on HOST)."
        case let .sensorNotFound(kind, uri, lookedFor, found):
            return "no \(kind.noun) found on \(uri): looked for channels \(lookedFor.joined(separator: ", ")) on every device; found \(found.isEmpty ? "no IIO devices" : found.joined(separator: "; ")). `lodestone devices --uri \(uri)` lists every device with its channels; pin one with \(kind.pinOption) DEV."
        case let .pinnedDeviceNotFound(kind, pin, uri, found):
            return "\(kind.pinOption) \(pin): no device of that name or id with channels \(kind.rawFiles.joined(separator: ", ")) on \(uri); found \(found.isEmpty ? "no IIO devices" : found.joined(separator: "; ")). `lodestone devices --uri \(uri)` lists them."
        case let .permissionDenied(uri, device, file):
            return "permission denied on \(file) (\(device), \(uri)). Run as root, or install tools/99-lodestone-iio.rules into /etc/udev/rules.d/, add your user to the group it names (`iio`), run `udevadm control --reload && udevadm trigger`, and log in again."
        case let .io(uri, device, op, e):
            return "\(device) on \(uri): \(op) failed: \(errorText(e)); will retry"
        case let .timeout(uri, device, s):
            return "\(device) on \(uri): no data for \(s) s; will retry"
        case let .unsupported(text):
            return text
        }
    }
}

/// `strerror` text for an errno value.
func errorText(_ e: Int32) -> String {
    if let p = strerror(e) { return String(cString: p) + " (errno \(e))" }
    return "errno \(e)"
}
