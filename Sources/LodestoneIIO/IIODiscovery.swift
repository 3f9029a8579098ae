import CLibIIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore

/// A sensor resolved on a context: where its files are and how to turn raw
/// counts into body-frame values.
struct SensorBinding {
    let kind: IIOSensorKind
    let device: IIODevice
    let info: IIOSensorInfo
    let rawAttributes: [IIODevice.Attribute]
    let scanTypes: [IIOScanType?]
    let scanIndices: [Int?]
    /// Lodestone units per count, per axis.
    let unitsPerCount: Vector3
    let offsets: Vector3
    let mountMatrix: Matrix3
    let overflowValue: Int64?

    /// Scaled chip-frame value of raw counts.
    @inlinable
    func chipValue(_ raw: RawTriple) -> Vector3 {
        Vector3((Double(raw.x) + offsets.x) * unitsPerCount.x,
                (Double(raw.y) + offsets.y) * unitsPerCount.y,
                (Double(raw.z) + offsets.z) * unitsPerCount.z)
    }
}

/// Finds sensors by their channels and reads everything needed to scale them.
enum IIODiscovery {
    /// Attribute file candidates, most specific first (ABI: separate, by type, by direction, shared).
    static func scaleFiles(_ k: IIOSensorKind, _ axis: String) -> [String] {
        ["in_\(k.rawValue)_\(axis)_scale", "in_\(k.rawValue)_scale", "in_scale", "scale"]
    }
    static func offsetFiles(_ k: IIOSensorKind, _ axis: String) -> [String] {
        ["in_\(k.rawValue)_\(axis)_offset", "in_\(k.rawValue)_offset", "in_offset", "offset"]
    }
    static func mountMatrixFiles(_ k: IIOSensorKind) -> [String] {
        ["in_\(k.rawValue)_mount_matrix", "in_mount_matrix", "mount_matrix"]
    }
    static func frequencyFiles(_ k: IIOSensorKind) -> [String] {
        ["in_\(k.rawValue)_sampling_frequency", "in_sampling_frequency", "sampling_frequency"]
    }
    static func availableFrequencyFiles(_ k: IIOSensorKind) -> [String] {
        ["in_\(k.rawValue)_sampling_frequency_available", "in_sampling_frequency_available", "sampling_frequency_available"]
    }

    /// The sensor of `kind` on `device`, or nil when the device lacks its raw channels.
    static func bind(_ kind: IIOSensorKind, on device: IIODevice, applyCorrections: Bool) throws(IIOSourceError) -> SensorBinding? {
        guard !device.isTrigger, kind.rawFiles.allSatisfy(device.has) else { return nil }
        let quirk = applyCorrections ? IIODriverQuirk.quirk(deviceName: device.name, kind: kind) : nil
        var channels: [IIOChannelInfo] = []
        var attrs: [IIODevice.Attribute] = []
        var types: [IIOScanType?] = []
        var indices: [Int?] = []
        var perCount: [Double] = []
        var offsets: [Double] = []
        for (axis, id) in zip(["x", "y", "z"], kind.channelIDs) {
            let rawFile = "in_\(id)_raw"
            guard let raw = device.files[rawFile] else { return nil }
            attrs.append(raw)
            let scaleFile = device.first(of: scaleFiles(kind, axis))
            let scale = try scaleFile.map { f throws(IIOSourceError) in try number(device, f) } ?? 1
            let offsetFile = device.first(of: offsetFiles(kind, axis))
            let offset = try offsetFile.map { f throws(IIOSourceError) in try number(device, f) } ?? 0
            var index: Int? = nil
            var type: IIOScanType? = nil
            if let ch = device.channel(id), iio_channel_is_scan_element(ch) {
                let idx = iio_channel_get_index(ch)
                if idx >= 0, let f = iio_channel_get_data_format(ch)?.pointee {
                    index = idx
                    type = IIOScanType.checked(isBigEndian: f.is_be, isSigned: f.is_signed, realBits: Int(f.bits),
                                               storageBits: Int(f.length), shift: Int(f.shift), repeatCount: Int(max(1, f.repeat)))
                }
            }
            channels.append(IIOChannelInfo(id: id, rawFile: rawFile, scale: scale, scaleFile: scaleFile, offset: offset,
                                           offsetFile: offsetFile, scanIndex: index, scanType: type?.description))
            types.append(type)
            indices.append(index)
            perCount.append(scale * kind.unitFactor * (quirk?.scaleCorrection ?? 1))
            offsets.append(offset)
        }
        let mountFile = device.first(of: mountMatrixFiles(kind))
        var mount = try mountMatrix(device, mountFile)
        var corrections: [String] = []
        if applyCorrections, kind == .magnetometer,
           let fixed = InvensenseMagnetometerMatrix.corrected(deviceName: device.name, printed: mount,
                                                             accelerometer: try? mountMatrix(device, device.first(of: mountMatrixFiles(.accelerometer)))) {
            mount = fixed
            corrections.append(InvensenseMagnetometerMatrix.note)
        }
        let freqFile = device.first(of: frequencyFiles(kind))
        let freq = freqFile.flatMap { f in (try? string(device, f)).flatMap(IIOText.double) }
        let available = device.first(of: availableFrequencyFiles(kind)).flatMap { try? string(device, $0) }.map { IIOText.numberList($0).map(\.value) } ?? []
        var limit: Int64 = 32767
        if let t = types.compactMap({ $0 }).first { limit = t.maximumValue }
        if let q = quirk?.saturationLimit { limit = min(limit, q) }
        if let q = quirk, q.scaleCorrection != 1 { corrections.append(q.note) }
        let info = IIOSensorInfo(kind: kind, deviceID: device.id, deviceName: device.name, channels: channels,
                                 unitsPerCount: perCount, mountMatrix: IIOMountMatrix.entries(mount), mountMatrixFile: mountFile,
                                 samplingFrequency: freq, samplingFrequencyFile: freqFile, availableSamplingFrequencies: available,
                                 corrections: corrections, saturationLimit: limit)
        return SensorBinding(kind: kind, device: device, info: info, rawAttributes: attrs, scanTypes: types, scanIndices: indices,
                             unitsPerCount: Vector3(perCount[0], perCount[1], perCount[2]),
                             offsets: Vector3(offsets[0], offsets[1], offsets[2]), mountMatrix: mount,
                             overflowValue: quirk?.overflowValue)
    }

    /// The matrix in `file` (identity when there is no file).
    static func mountMatrix(_ device: IIODevice, _ file: String?) throws(IIOSourceError) -> Matrix3 {
        guard let f = file else { return .identity }
        let text = try string(device, f)
        guard let m = IIOMountMatrix.parse(text), let _ = m.inverse else {
            throw .unsupported("\(device.displayName): cannot parse \(f) = \"\(text)\": expected \"a, b, c; d, e, f; g, h, i\" with an invertible matrix")
        }
        return m
    }

    static func string(_ device: IIODevice, _ file: String) throws(IIOSourceError) -> String {
        switch device.read(file) {
        case .success(let s): return s
        case .failure(let e): throw fileError(device, file, e.code, operation: "reading \(file)")
        }
    }

    static func number(_ device: IIODevice, _ file: String) throws(IIOSourceError) -> Double {
        let text = try string(device, file)
        guard let v = IIOText.double(text) else {
            throw .unsupported("\(device.displayName): \(file) = \"\(IIOText.trimmed(text))\" is not a number")
        }
        return v
    }

    /// The error for a failed access to a device file.
    static func fileError(_ device: IIODevice, _ file: String, _ e: Int32, operation: String, uri: String = "") -> IIOSourceError {
        if e == EACCES || e == EPERM {
            let path = device.id.hasPrefix("iio:") ? "/sys/bus/iio/devices/\(device.id)/\(file)" : file
            return .permissionDenied(uri: uri.isEmpty ? "local:" : uri, device: device.displayName, file: path)
        }
        return .io(uri: uri, device: device.displayName, operation: operation, errno: e)
    }

    /// One line per device for error messages: `iio:device1 lis3dh: accel_x, accel_y, accel_z`.
    static func summaries(_ devices: [IIODevice]) -> [String] {
        devices.filter { !$0.isTrigger }.map { d in
            "\(d.id) \(d.name ?? "(no name)"): \(d.channelIDs.filter { $0 != "mount" }.joined(separator: ", "))"
        }
    }

    /// Does `device` answer to `pin` (an id like `iio:device2`, a name, or a label)?
    static func matches(_ device: IIODevice, pin: String) -> Bool {
        device.id == pin || device.name == pin || device.label == pin
    }

    /// Resolves one sensor, honouring a pin. `preferred` breaks ties (e.g. the gyro on the accel's device).
    static func resolve(_ kind: IIOSensorKind, pin: String?, preferred: String?, devices: [IIODevice], uri: String,
                        applyCorrections: Bool) throws(IIOSourceError) -> SensorBinding? {
        if let pin {
            for d in devices where matches(d, pin: pin) {
                if let b = try bind(kind, on: d, applyCorrections: applyCorrections) { return b }
            }
            throw .pinnedDeviceNotFound(kind: kind, pin: pin, uri: uri, found: summaries(devices))
        }
        var ordered = devices
        if let preferred, let i = ordered.firstIndex(where: { $0.id == preferred }) {
            ordered.insert(ordered.remove(at: i), at: 0)
        }
        for d in ordered {
            if let b = try bind(kind, on: d, applyCorrections: applyCorrections) { return b }
        }
        return nil
    }

    /// The listing model of every device on a context.
    static func describe(_ devices: [IIODevice], applyCorrections: Bool) -> [IIODeviceInfo] {
        devices.map { d in
            let sensors = IIOSensorKind.allCases.compactMap { k in try? bind(k, on: d, applyCorrections: applyCorrections)?.info }
            var usesTrigger = false
            var current: String? = nil
            switch d.triggerState() {
            case .notNeeded: break
            case .unset, .error: usesTrigger = true
            case .set(let t): usesTrigger = true; current = t
            }
            let ids = d.channelIDs.filter { $0 != "mount" }
            let buffer = d.isTrigger ? false : ids.contains { id in d.channel(id).map { iio_channel_is_scan_element($0) } ?? false }
            return IIODeviceInfo(id: d.id, name: d.name, label: d.label, isTrigger: d.isTrigger, channels: ids, sensors: sensors,
                                 bufferCapable: buffer, usesTrigger: buffer && usesTrigger, currentTrigger: current,
                                 hasTimestamp: ids.contains("timestamp"),
                                 timestampClock: d.has("current_timestamp_clock") ? (try? string(d, "current_timestamp_clock")).map { String(IIOText.trimmed($0)) } : nil)
        }
    }
}

/// Lists IIO devices for `lodestone devices`.
public enum IIODeviceCatalog {
    /// Every device on `uri` with the sensors Lodestone recognises.
    public static func list(uri: String = "local:", applyCorrections: Bool = true) throws(IIOSourceError) -> [IIODeviceInfo] {
        let ctx = try IIOContext(uri: uri)
        return IIODiscovery.describe(ctx.devices(), applyCorrections: applyCorrections)
    }
}
