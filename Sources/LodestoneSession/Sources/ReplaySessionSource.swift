import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs

/// A recorded log. With `loop` it starts again at the end, log time continuing
/// (one sample period after the last), so the smoothing sees no jump back.
public final class ReplaySessionSource: SessionSource {
    public let settings: ReplaySettings
    public private(set) var reader: LogReader
    private var offset = 0.0
    private var lastTime = 0.0
    private var period = 0.01
    public let label = "replay"

    public init(_ settings: ReplaySettings) throws(SessionError) {
        self.settings = settings
        reader = try Self.open(settings)
    }

    /// A log already open (with options of its own), replayed once as fast as possible.
    public init(reader: LogReader, path: String) {
        settings = ReplaySettings(path: path, speed: nil)
        self.reader = reader
    }

    static func open(_ settings: ReplaySettings) throws(SessionError) -> LogReader {
        do {
            // A paced replay reads a few kB per second: a 64 KiB buffer instead of 1 MiB of resident memory.
            return try LogReader(path: settings.path, options: .init(bufferSize: settings.speed == nil ? 1 << 20 : 1 << 16))
        } catch {
            throw SessionError(error)
        }
    }

    public var pacing: Double? { settings.speed }

    /// Unpaced, the next line of the log is always ready.
    public var hasQueuedSample: Bool { settings.speed == nil }

    public var hasGyroscope: Bool? { reader.columns.contains("gyro_x") }

    public var startWallClock: Double? { reader.metadata?.startUnixSeconds }

    /// As `lodestone replay` finds them: from the device recorded in the log's header.
    public var calibrationDevices: SourceDevices { SourceDevices(log: reader.metadata) }

    public var devices: [DeviceDescription] {
        [DeviceDescription(kind: "log", path: settings.path, name: reader.format.rawValue, rate: reader.metadata?.rate,
                           detail: reader.metadata?.source.map { "recorded from \($0)" })]
    }

    public func nextSample() throws -> SensorSample? {
        if var s = try reader.nextSample() {
            s.time += offset
            if s.time > lastTime { period = min(1, s.time - lastTime) }
            lastTime = s.time
            return s
        }
        guard settings.loop, reader.sampleCount > 0 else { return nil }
        reader = try Self.open(settings)
        guard var s = try reader.nextSample() else { return nil }
        offset = lastTime + period - s.time
        s.time += offset
        lastTime = s.time
        return s
    }

    public func release() {}
}
