#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibration

/// Calibration profiles on disk: reading with checks, atomic writing, and the
/// default place for a device's profile.
///
/// A device's profile lives in `directory` (default `calibration`, relative
/// to the working directory) under a name made from its identity and the
/// sensor: `<driver>-<name>[-<serial>]-<sensor>.json`, e.g.
/// `calibration/hmc5843-hmc5883l-magnetometer.json`. That is how a profile is
/// found again for the same device (automatic matching); the identity stored
/// inside the file is checked against the device before it is used.
public struct CalibrationProfileStore: Sendable {
    public var directory: String

    public static let defaultDirectory = "calibration"
    /// No profile is anywhere near this big (about 1.5 kB).
    public static let maximumFileSize = 1 << 20

    public init(directory: String = CalibrationProfileStore.defaultDirectory) {
        self.directory = directory
    }

    /// The file name stem for a device, or nil when the identity names nothing.
    public static func stem(for device: CalibrationProfile.DeviceIdentity) -> String? {
        var parts: [String] = []
        for part in [device.driver, device.name, device.serial] {
            guard let part, !part.isEmpty else { continue }
            let safe = sanitized(part)
            if parts.last != safe { parts.append(safe) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "-")
    }

    /// Where the profile of `sensor` on `device` belongs, or nil for an anonymous device.
    public func path(for device: CalibrationProfile.DeviceIdentity, sensor: CalibrationProfile.SensorKind) -> String? {
        stem(for: device).map { directory + "/" + $0 + "-" + sensor.rawValue + ".json" }
    }

    private func stem(for device: CalibrationProfile.DeviceIdentity) -> String? { Self.stem(for: device) }

    /// Letters, digits, `.`, `_` and `-` pass; anything else (a `/`, a space) becomes `_`.
    static func sanitized(_ s: String) -> String {
        let out = String(s.unicodeScalars.map { c -> Character in
            let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "_" || c == "-"
            return ok ? Character(c) : "_"
        })
        return out.hasPrefix(".") ? "_" + out.dropFirst() : out
    }

    // MARK: Reading

    /// Reads and validates a profile. With `sensor`, the profile must be for
    /// that sensor; with `device`, its identity must not contradict the device's.
    public static func load(path: String, sensor: CalibrationProfile.SensorKind? = nil,
                            device: CalibrationProfile.DeviceIdentity? = nil) throws(CalibrationFileError) -> CalibrationProfile {
        let bytes = try read(path)
        let profile: CalibrationProfile
        do {
            profile = try CalibrationProfile(json: bytes)
        } catch {
            throw CalibrationFileError(path: path, .invalid(error))
        }
        if let sensor, profile.sensor != sensor {
            throw CalibrationFileError(path: path, .wrongSensor(expected: sensor, found: profile.sensor))
        }
        if let device { try check(profile, at: path, against: device) }
        return profile
    }

    /// Throws when `profile`'s identity contradicts `device`'s (driver, name or
    /// serial known to both and different).
    public static func check(_ profile: CalibrationProfile, at path: String,
                             against device: CalibrationProfile.DeviceIdentity) throws(CalibrationFileError) {
        if let conflict = profile.device.conflicts(with: device).first {
            throw CalibrationFileError(path: path, .wrongDevice(field: conflict.field, profile: conflict.value, device: conflict.other))
        }
    }

    /// The profile stored for `device`'s `sensor`, if the file exists; it must
    /// be valid, for that sensor, and for that device (its identity may not be
    /// anonymous or contradict the device's).
    public func automaticProfile(for device: CalibrationProfile.DeviceIdentity, sensor: CalibrationProfile.SensorKind)
        throws(CalibrationFileError) -> (path: String, profile: CalibrationProfile)? {
        guard let path = path(for: device, sensor: sensor), access(path, F_OK) == 0 else { return nil }
        let profile = try Self.load(path: path, sensor: sensor, device: device)
        if profile.device.isAnonymous {
            throw CalibrationFileError(path: path, .wrongDevice(field: "device", profile: "no identity", device: device.summary))
        }
        return (path, profile)
    }

    private static func read(_ path: String) throws(CalibrationFileError) -> [UInt8] {
        do {
            return try FileBytes.read(path, limit: maximumFileSize)
        } catch {
            switch error {
            case .cannotRead(let code): throw CalibrationFileError(path: path, .cannotRead(code))
            case .tooLarge(let bytes, _): throw CalibrationFileError(path: path, .tooLarge(bytes: bytes))
            case .notAFile: throw CalibrationFileError(path: path, .notAFile)
            }
        }
    }

    // MARK: Writing

    /// Validates `profile` and writes it to `path` atomically (see `AtomicFile`),
    /// creating the directory `calibration/` if it is the default one and missing.
    public static func save(_ profile: CalibrationProfile, to path: String,
                            options: AtomicFile.Options = AtomicFile.Options()) throws(CalibrationFileError) {
        let bytes: [UInt8]
        do {
            bytes = try profile.jsonBytes()
        } catch {
            throw CalibrationFileError(path: path, .invalid(error))
        }
        let directory = AtomicFile.split(path).directory
        if directory == defaultDirectory || directory.hasSuffix("/" + defaultDirectory) {
            mkdir(directory, 0o755)
        }
        do {
            try AtomicFile.write(bytes, to: path, options: options)
        } catch {
            throw CalibrationFileError(path: path, .cannotWrite(error))
        }
    }
}
