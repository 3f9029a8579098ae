import LodestoneCalibrationStore
import LodestoneLocation

/// The saved regions of `serve` (config `regions.file`) and `lodestone regions --file`:
/// a ``RegionSet`` as JSON, read with checks that name the field at fault and
/// written atomically (``AtomicFile``), so that a crash or power cut leaves the old
/// file or the new one, never a torn one.
public enum RegionFile {
    /// A region file is small: 20 regions take about 5 KB.
    public static let maximumFileSize = 1 << 20

    /// The saved regions; nil when the file does not exist (nothing saved yet).
    public static func load(_ path: String, settings: RegionMonitor.Settings) throws(SessionError) -> RegionSet? {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: maximumFileSize)
        } catch {
            if error.isMissing { return nil }
            throw SessionError(.inaccessible, "regions file \(path): cannot be read: \(error)")
        }
        do {
            return try RegionSet(json: bytes, maximumRegions: settings.maximumRegions, maximumRadius: settings.maximumRadius)
        } catch {
            throw SessionError(.badInput, "regions file \(path): \(error); fix it or move it away (it is not overwritten while it is bad)")
        }
    }

    public static func save(_ regions: RegionSet, to path: String, settings: RegionMonitor.Settings,
                            options: AtomicFile.Options = .init(permissions: 0o640)) throws(SessionError) {
        let bytes: [UInt8]
        do {
            bytes = try regions.jsonBytes(maximumRegions: settings.maximumRegions, maximumRadius: settings.maximumRadius)
        } catch {
            throw SessionError(.badInput, "regions file \(path): \(error)")
        }
        do {
            try AtomicFile.write(bytes, to: path, options: options)
        } catch {
            throw SessionError(.inaccessible, "regions file \(error)")
        }
    }
}
