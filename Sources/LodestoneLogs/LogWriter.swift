#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Writes a native Lodestone log: the magic line, one JSON metadata line, the
/// CSV header, then one sample per line. Without metadata it writes plain CSV.
///
/// Numbers are written in their shortest round-trip form, so replaying a log
/// feeds the pipeline bit-identical values. Appending to an existing log keeps
/// its header (the columns must match) and continues its clock, since sample
/// times count from the metadata's `start`.
public final class LogWriter {
    public let path: String
    public let columns: [String]
    public let gyroscope: Bool
    /// Whether the `speed` and `track` columns are written (empty where a sample has none).
    public let groundTrack: Bool
    /// Whether the `temperature` column is written (empty where a sample has none).
    public let temperature: Bool
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var lastTime = -Double.infinity

    public static let magicLine = "# lodestone-log 1"

    /// Creates `path` (replacing it), or appends to it when `append` is set and it exists.
    public init(path: String, metadata: LogMetadata?, gyroscope: Bool, groundTrack: Bool = false,
                temperature: Bool = false, extraColumns: [String] = [], append: Bool = false) throws(LogError) {
        self.path = path
        self.gyroscope = gyroscope
        self.groundTrack = groundTrack
        self.temperature = temperature
        columns = LogColumns.header(gyroscope: gyroscope, groundTrack: groundTrack, temperature: temperature,
                                    extra: extraColumns)
        buffer.reserveCapacity(1 << 16)
        var exists = false
        if append, access(path, F_OK) == 0 {
            let existing = try LogReader(path: path)
            guard (existing.format == .native) == (metadata != nil) else {
                throw LogError(.incompatibleAppend, file: path,
                               "cannot append: the file is \(existing.format.rawValue), not \(metadata == nil ? "plain CSV" : "a native Lodestone log")")
            }
            guard existing.columns == columns else {
                throw LogError(.incompatibleAppend, file: path,
                               "cannot append: its columns \(existing.columns.joined(separator: ",")) differ from \(columns.joined(separator: ","))")
            }
            while let s = try existing.nextSample() { lastTime = s.time }
            exists = true
        }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exists ? O_APPEND : O_TRUNC)
        let d = open(path, flags, 0o644)
        guard d >= 0 else {
            throw LogError(.cannotOpen, file: path, "cannot open for writing: \(describeErrno(errno))")
        }
        fd = d
        if !exists {
            if let metadata { appendText(Self.magicLine + "\n# " + metadata.jsonLine() + "\n") }
            appendText(columns.joined(separator: ",") + "\n")
        }
    }

    deinit {
        try? flush()
        close(fd)
    }

    private func appendText(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Appends one sample; `extras` fills the extra columns in order.
    public func write(_ sample: SensorSample, extras: [Double] = []) throws(LogError) {
        var line = try sampleText(sample)
        for e in extras { line += ",\(e)" }
        try appendLine(line)
    }

    /// Appends one sample whose extra columns are whole numbers (raw sensor counts).
    public func write(_ sample: SensorSample, integerExtras: [Int64]) throws(LogError) {
        var line = try sampleText(sample)
        for e in integerExtras { line += ",\(e)" }
        try appendLine(line)
    }

    private func sampleText(_ sample: SensorSample) throws(LogError) -> String {
        guard sample.time >= lastTime else {
            throw LogError(.timeWentBackwards, file: path,
                           "sample time \(sample.time) s is before the log's last time \(lastTime) s")
        }
        lastTime = sample.time
        var line = "\(sample.time),"
        let a = sample.acceleration, m = sample.magneticField
        line += "\(a.x),\(a.y),\(a.z),\(m.x),\(m.y),\(m.z)"
        if gyroscope {
            let g = sample.angularRate ?? .zero
            line += ",\(g.x),\(g.y),\(g.z)"
        }
        if groundTrack {
            if let v = sample.speed, !(v >= 0) {
                throw LogError(.outOfRange, file: path, "sample at \(sample.time) s has ground speed \(v); it must be ≥ 0 m/s")
            }
            if let v = sample.track, !(0...360).contains(v) {
                throw LogError(.outOfRange, file: path, "sample at \(sample.time) s has track \(v); it must be 0–360 degrees")
            }
            line += "," + (sample.speed.map { "\($0)" } ?? "") + "," + (sample.track.map { "\($0)" } ?? "")
        }
        if temperature {
            if let v = sample.temperature, !SensorSample.temperatureRange.contains(v) {
                throw LogError(.outOfRange, file: path,
                               "sample at \(sample.time) s has temperature \(v) °C; it must be \(SensorSample.temperatureRange.lowerBound) to \(SensorSample.temperatureRange.upperBound) °C")
            }
            line += "," + (sample.temperature.map { "\($0)" } ?? "")
        }
        return line
    }

    private func appendLine(_ line: String) throws(LogError) {
        appendText(line)
        appendText("\n")
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes buffered lines to the file.
    public func flush() throws(LogError) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LogError(.writeFailed, file: path, "write failed: \(describeErrno(errno))")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and forces the data to storage.
    public func finish() throws(LogError) {
        try flush()
        guard fsync(fd) == 0 || errno == EINVAL else {
            throw LogError(.writeFailed, file: path, "fsync failed: \(describeErrno(errno))")
        }
    }
}
