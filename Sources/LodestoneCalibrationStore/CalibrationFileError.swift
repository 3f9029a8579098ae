#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibration

/// A calibration profile file that cannot be used, with the file named and
/// what to do about it. Nothing is ever applied from such a file.
public struct CalibrationFileError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The file cannot be opened or read (`errno`).
        case cannotRead(Int32)
        /// Not a regular file (a FIFO, a device, a directory): never waited for.
        case notAFile
        /// Larger than any profile; not a profile.
        case tooLarge(bytes: Int)
        /// The content is not a valid profile; the field is named inside.
        case invalid(CalibrationProfileError)
        /// A profile for the other sensor.
        case wrongSensor(expected: CalibrationProfile.SensorKind, found: CalibrationProfile.SensorKind)
        /// The profile's device differs from the device it would be applied to.
        case wrongDevice(field: String, profile: String, device: String)
        /// Writing failed; the old file is unchanged.
        case cannotWrite(AtomicFileError)
    }

    public var path: String
    public var kind: Kind

    public init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// True for problems of access (exit code 3) rather than of content (exit code 1).
    public var isAccessProblem: Bool {
        switch kind {
        case .cannotRead, .notAFile, .cannotWrite: return true
        default: return false
        }
    }

    public var description: String {
        switch kind {
        case let .cannotRead(code):
            let advice = code == ENOENT ? "; check the path, or run 'lodestone calibrate' to make one" : ""
            return "\(path): cannot read the calibration profile: \(String(cString: strerror(code)))\(advice)"
        case .notAFile:
            return "\(path): not a regular file (a FIFO, a device or a directory); pass the path of a profile"
        case let .tooLarge(bytes):
            return "\(path): \(bytes) bytes is far too large for a calibration profile; is this the right file?"
        case let .invalid(error):
            return "\(path): \(error)"
        case let .wrongSensor(expected, found):
            return "\(path): field sensor is \"\(found.rawValue)\", but a \(expected.rawValue) profile is needed here; pass the \(expected.rawValue)'s profile"
        case let .wrongDevice(field, profile, device):
            return "\(path): field \(field) is \"\(profile)\", but the sensor is \"\(device)\": this profile belongs to another device; calibrate this one with 'lodestone calibrate', or pass the right file with --calibration"
        case let .cannotWrite(error):
            return error.description
        }
    }
}
