#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Streams samples from a plain CSV or native Lodestone log, in constant memory.
///
/// The format is detected from the first line: `# lodestone-log 1` starts a
/// native log (its JSON metadata line follows); anything else is plain CSV.
/// Columns are found by name in the header line; `#` lines are comments.
/// Every line is checked: column count, numbers, finiteness, time order.
/// The optional `speed` (m/s, ≥ 0) and `track` (degrees from true north,
/// 0–360) columns of a position source may be empty or `nan` where it knew
/// none; they become ``SensorSample/speed`` and ``SensorSample/track``. So may
/// the optional `temperature` (°C, the gyroscope's), ``SensorSample/temperature``.
/// With ``Options/skipBadLines`` a bad line is counted and skipped instead of
/// ending the stream with an error.
public final class LogReader: SensorSource {
    public struct Options: Sendable {
        public var skipBadLines: Bool
        /// Extra columns the caller wants, by name (e.g. truth quaternions); they must exist.
        public var extraColumns: [String]
        /// Read buffer, bytes; also the longest line accepted. 1 MiB reads fast; a paced
        /// replay (the daemon) needs far less and keeps its memory small.
        public var bufferSize: Int

        public init(skipBadLines: Bool = false, extraColumns: [String] = [], bufferSize: Int = 1 << 20) {
            self.skipBadLines = skipBadLines
            self.extraColumns = extraColumns
            self.bufferSize = bufferSize
        }
    }

    public enum Format: String, Sendable {
        case plainCSV = "csv"
        case native = "lodestone-log"
    }

    public let path: String
    public let options: Options
    public private(set) var format: Format = .plainCSV
    /// Metadata of a native log; nil for plain CSV.
    public private(set) var metadata: LogMetadata?
    /// Column names of the header, in file order.
    public private(set) var columns: [String] = []
    // Read for every sample: dynamic exclusivity checks would cost more than the read.
    @exclusivity(unchecked) public private(set) var hasGyroscope = false
    /// Whether the log has a `speed` column, and a `track` column.
    public private(set) var hasSpeed = false
    public private(set) var hasTrack = false
    /// Whether the log has a `temperature` column.
    public private(set) var hasTemperature = false
    /// Values of ``Options/extraColumns`` for the last sample returned (may be non-finite).
    public var extraValues: [Double] {
        Array(UnsafeBufferPointer(start: slots + Self.sampleSlots, count: options.extraColumns.count))
    }
    /// Bad lines skipped so far, and the first few of them.
    // Held open across every sample's loop by the optimizer: dynamic exclusivity checks
    // would cost two runtime calls per sample for fields touched only on bad lines.
    @exclusivity(unchecked) public private(set) var skippedLineCount = 0
    @exclusivity(unchecked) public private(set) var skippedLines: [LogError] = []
    @exclusivity(unchecked) public private(set) var sampleCount = 0

    private let reader: LineReader
    /// For each file column: -1 ignore, 0 time, 1…9 accel/mag/gyro, 10 speed,
    /// 11 track, 12 temperature, 13+ extras.
    @exclusivity(unchecked) private var roles = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    /// Unit conversion factor of each of the sample slots.
    private let scales: UnsafeMutablePointer<Double>
    /// Parsed values: the sample slots, then the extras.
    private let slots: UnsafeMutablePointer<Double>
    @exclusivity(unchecked) private var lastTime = -Double.infinity

    private static let roleNames = LogColumns.required + LogColumns.angularRate + LogColumns.groundTrack
        + [LogColumns.temperature]
    private static let sampleSlots = 13
    private static let speedRole = 10
    private static let trackRole = 11
    private static let temperatureRole = 12
    /// Columns that may be empty or `nan` where their source knew nothing: speed, track, temperature.
    private static let optionalRoles = speedRole...temperatureRole

    /// Opens `path` (`-` for standard input) and reads its header.
    public init(path: String, options: Options = Options()) throws(LogError) {
        self.path = path
        self.options = options
        scales = .allocate(capacity: Self.sampleSlots)
        scales.initialize(repeating: 1, count: Self.sampleSlots)
        slots = .allocate(capacity: Self.sampleSlots + options.extraColumns.count)
        slots.initialize(repeating: .nan, count: Self.sampleSlots + options.extraColumns.count)
        do {
            reader = try LineReader(path: path, bufferSize: options.bufferSize)
        } catch {
            throw LogError(.cannotOpen, file: path, "cannot open: \(error.explanation)")
        }
        try readHeader()
    }

    deinit {
        scales.deallocate()
        slots.deallocate()
        roles.deallocate()
    }

    private var displayName: String { path == "-" ? "<stdin>" : path }

    private func failure(_ kind: LogError.Kind, line: Int? = nil, _ message: String) -> LogError {
        LogError(kind, file: displayName, line: line, message)
    }

    private func nextLine() throws(LogError) -> UnsafeBufferPointer<UInt8>? {
        do {
            return try reader.nextLine()
        } catch .lineTooLong {
            throw failure(.lineTooLong, line: reader.lineNumber + 1,
                        "line is longer than \(reader.maximumLineLength) bytes; is this a log file?")
        } catch {
            throw failure(.cannotOpen, line: reader.lineNumber + 1, "read failed: \(error.explanation)")
        }
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    private func readHeader() throws(LogError) {
        var sawAnyLine = false
        var first = true
        while let line = try nextLine() {
            sawAnyLine = true
            if Self.isBlank(line) { continue }
            let text = String(decoding: line, as: UTF8.self)
            if first, text.hasPrefix("# lodestone-log") {
                try readNativePreamble(magic: text)
                first = false
                continue
            }
            first = false
            if text.hasPrefix("#") { continue }
            try parseHeader(text, line: reader.lineNumber)
            return
        }
        if !sawAnyLine { throw failure(.emptyFile, "the file is empty; expected a header line '\(LogColumns.required.joined(separator: ","))' followed by samples") }
        throw failure(.missingHeader, "no header line found (only comments); expected '\(LogColumns.required.joined(separator: ","))'")
    }

    private func readNativePreamble(magic: String) throws(LogError) {
        let version = magic.dropFirst("# lodestone-log".count).trimmedOfBlanks
        guard version == "1" else {
            throw failure(.badMetadata, line: reader.lineNumber,
                        "unsupported native log version '\(version)'; this Lodestone reads version 1")
        }
        format = .native
        guard let line = try nextLine() else {
            throw failure(.badMetadata, line: reader.lineNumber + 1, "missing the metadata line after '# lodestone-log 1'")
        }
        let text = String(decoding: line, as: UTF8.self)
        let meta: LogMetadata
        do {
            guard text.hasPrefix("#") else { throw LogMetadataError(description: "the line does not start with '#'") }
            meta = try LogMetadata.decode(jsonLine: String(text.dropFirst()))
        } catch {
            throw failure(.badMetadata, line: reader.lineNumber,
                        "bad metadata (\(error)); expected the metadata as one JSON object after '# ' (e.g. # {\"units\":{…}})")
        }
        let u = meta.units
        let factors = [("time", u.time, UnitConversion.time(u.time), UnitConversion.timeUnits),
                       ("acceleration", u.acceleration, UnitConversion.acceleration(u.acceleration), UnitConversion.accelerationUnits),
                       ("magneticField", u.magneticField, UnitConversion.magneticField(u.magneticField), UnitConversion.magneticFieldUnits),
                       ("angularRate", u.angularRate, UnitConversion.angularRate(u.angularRate), UnitConversion.angularRateUnits)]
        if let (key, unit, _, known) = factors.first(where: { $0.2 == nil }) {
            throw failure(.unsupportedUnit, line: reader.lineNumber,
                        "unsupported unit \"\(PrintableText.excerpt(unit, limit: 40))\" for units.\(key); use one of \(known.joined(separator: ", "))")
        }
        let (t, a, m, g) = (factors[0].2 ?? 1, factors[1].2 ?? 1, factors[2].2 ?? 1, factors[3].2 ?? 1)
        for (i, f) in [t, a, a, a, m, m, m, g, g, g].enumerated() { scales[i] = f }
        metadata = meta
    }

    private func parseHeader(_ text: String, line: Int) throws(LogError) {
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmedOfBlanks.lowercased() }
        if let c = names.first?.unicodeScalars.first, "0123456789+-.".unicodeScalars.contains(c) {
            throw failure(.missingHeader, line: line,
                        "missing header: the first line holds numbers; add a header line '\(LogColumns.required.joined(separator: ","))' (gyro_x,gyro_y,gyro_z optional)")
        }
        var seen = Set<String>()
        for n in names where !n.isEmpty {
            guard seen.insert(n).inserted else {
                throw failure(.duplicateColumn, line: line, "column '\(n)' appears twice in the header")
            }
        }
        let missing = LogColumns.required.filter { !seen.contains($0) }
        guard missing.isEmpty else {
            throw failure(.missingColumns, line: line,
                        "header lacks column(s) \(missing.joined(separator: ", ")); found \(names.joined(separator: ","))")
        }
        let gyroFound = LogColumns.angularRate.filter { seen.contains($0) }
        guard gyroFound.isEmpty || gyroFound.count == 3 else {
            throw failure(.missingColumns, line: line, "header has \(gyroFound.joined(separator: ", ")) but not all of gyro_x,gyro_y,gyro_z")
        }
        let extrasMissing = options.extraColumns.filter { !seen.contains($0.lowercased()) }
        guard extrasMissing.isEmpty else {
            throw failure(.missingColumns, line: line, "header lacks column(s) \(extrasMissing.joined(separator: ", ")) needed here")
        }
        hasGyroscope = gyroFound.count == 3
        hasSpeed = seen.contains(LogColumns.speed)
        hasTrack = seen.contains(LogColumns.track)
        hasTemperature = seen.contains(LogColumns.temperature)
        columns = names
        roles = .allocate(capacity: names.count)
        for (i, name) in names.enumerated() {
            if let r = Self.roleNames.firstIndex(of: name) {
                roles[i] = r
            } else if let e = options.extraColumns.firstIndex(where: { $0.lowercased() == name }) {
                roles[i] = Self.sampleSlots + e
            } else {
                roles[i] = -1
            }
        }
    }

    /// The next sample, or nil at the end of the file.
    public func nextSample() throws(LogError) -> SensorSample? {
        while let line = try nextLine() {
            if line.isEmpty || line[0] == 0x23 || Self.isBlank(line) { continue }
            do {
                try parse(line)
            } catch let e {
                guard options.skipBadLines else { throw e }
                skippedLineCount += 1
                if skippedLines.count < 20 { skippedLines.append(e) }
                continue
            }
            sampleCount += 1
            let v = slots
            let speed = v[Self.speedRole], track = v[Self.trackRole], temperature = v[Self.temperatureRole]
            return SensorSample(time: v[0],
                                acceleration: Vector3(v[1], v[2], v[3]),
                                magneticField: Vector3(v[4], v[5], v[6]),
                                angularRate: hasGyroscope ? Vector3(v[7], v[8], v[9]) : nil,
                                speed: speed.isNaN ? nil : speed, track: track.isNaN ? nil : track,
                                temperature: temperature.isNaN ? nil : temperature)
        }
        if sampleCount == 0 && skippedLineCount == 0 {
            throw failure(.noSamples, "the file has a header but no samples")
        }
        return nil
    }

    private func parse(_ line: UnsafeBufferPointer<UInt8>) throws(LogError) {
        let roles = self.roles, columnCount = roles.count
        guard let base = line.baseAddress else {
            throw failure(.wrongColumnCount, line: reader.lineNumber, "expected \(columnCount) fields as in the header, found 0")
        }
        let end = base + line.count
        var fieldStart = base
        var column = 0
        while true {
            let role = column < columnCount ? roles[column] : -1
            let fieldEnd: UnsafePointer<UInt8>
            if role >= 0, !Self.optionalRoles.contains(role),
               let (value, stop) = DecimalParser.parsePlain(from: fieldStart, to: end, endsBeforeNonDigit: true), stop == end || stop.pointee == 0x2C {
                // The common field: a plain number right up to the comma, read in one pass.
                slots[role] = role < Self.sampleSlots ? value * scales[role] : value
                fieldEnd = stop
            } else {
                // Anything else: find the comma, then parse (and judge) the field whole.
                let rest = end - fieldStart
                let comma = rest > 0 ? memchr(fieldStart, 0x2C, rest).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } : nil
                fieldEnd = comma ?? end
                if role >= 0 {
                    try parseField(UnsafeBufferPointer(start: fieldStart, count: fieldEnd - fieldStart), role: role, column: column)
                }
            }
            column += 1
            guard fieldEnd < end else { break }
            fieldStart = fieldEnd + 1
        }
        guard column == columnCount else {
            throw failure(.wrongColumnCount, line: reader.lineNumber,
                        "expected \(columnCount) fields as in the header, found \(column)")
        }
        let t = slots[0]
        guard t >= lastTime else {
            throw failure(.timeWentBackwards, line: reader.lineNumber,
                        "time goes backwards: \(t) s after \(lastTime) s; samples must be in time order")
        }
        lastTime = t
    }

    /// A field in general: spaces around the number, `nan` or `inf` (refused in the
    /// sample's columns), or not a number at all.
    private func parseField(_ field: UnsafeBufferPointer<UInt8>, role: Int, column: Int) throws(LogError) {
        if Self.optionalRoles.contains(role) {
            return try parseOptional(field, role: role, column: column)
        }
        guard let value = DecimalParser.parse(field) else {
            throw fieldError(.notANumber, column: column, field: field, "is not a number")
        }
        if role < Self.sampleSlots {
            guard value.isFinite else {
                throw fieldError(.notFinite, column: column, field: field, "is not a finite number")
            }
            slots[role] = value * scales[role]
        } else {
            slots[role] = value
        }
    }

    /// A `speed`, `track` or `temperature` field: empty or `nan` where the source
    /// knew none; otherwise a speed ≥ 0 m/s, a track of 0–360° or a part's temperature.
    private func parseOptional(_ field: UnsafeBufferPointer<UInt8>, role: Int, column: Int) throws(LogError) {
        if Self.isBlank(field) {
            slots[role] = .nan
            return
        }
        guard let value = DecimalParser.parse(field) else {
            throw fieldError(.notANumber, column: column, field: field,
                             "is not a number (leave it empty, or write nan, where it is unknown)")
        }
        guard !value.isNaN else {
            slots[role] = .nan
            return
        }
        if role == Self.speedRole {
            guard value.isFinite, value >= 0 else {
                throw fieldError(.outOfRange, column: column, field: field, "is not a ground speed: it must be ≥ 0 m/s")
            }
        } else if role == Self.trackRole {
            guard value.isFinite, (0...360).contains(value) else {
                throw fieldError(.outOfRange, column: column, field: field,
                                 "is not a track: it must be 0–360 degrees from true north")
            }
        } else {
            let range = SensorSample.temperatureRange
            guard value.isFinite, range.contains(value) else {
                throw fieldError(.outOfRange, column: column, field: field,
                                 "is not a part's temperature: it must be \(range.lowerBound) to \(range.upperBound) °C")
            }
        }
        slots[role] = value
    }

    private func fieldError(_ kind: LogError.Kind, column: Int, field: UnsafeBufferPointer<UInt8>, _ what: String) -> LogError {
        let text = String(decoding: field.prefix(40), as: UTF8.self)
        return failure(kind, line: reader.lineNumber, "column \(columns[column]): '\(text)' \(what)")
    }
}

extension LogError: SensorSourceError {
    public var isTransient: Bool { false }
}
