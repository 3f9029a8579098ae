/// Reads an NMEA 0183 log into fixes, for replay: RMC (position, speed,
/// course, date), GGA (position, altitude, HDOP), GSA (fix mode, DOPs), GST
/// (error ellipse: the accuracy) and VTG (speed, course); any talker (GP, GN,
/// GL, GA, BD…). Other sentences are skipped.
///
/// Sentences with the same time of day make one fix; it is complete when a
/// sentence with another time arrives, or at ``finish()``. Sentences without
/// a time (GSA, VTG) belong to the fix being assembled. The horizontal
/// accuracy is √(σlat² + σlon²) from GST, else HDOP × `userRangeError`.
/// A time of day that goes back by more than 12 hours, with no new date,
/// is the next day. Every malformed line throws an ``NMEAError`` naming it;
/// the reader's state is unchanged by that line, so a caller may go on.
public struct NMEAReader: Sendable {
    public let settings: Settings
    private var epoch: NMEAEpoch?
    /// The day of the last completed fix, and its time of day.
    private var lastDays: Int64?
    private var lastTimeOfDay: Double?

    public init(settings: Settings = Settings()) throws(LocationSettingError) {
        try settings.validate()
        self.settings = settings
        lastDays = settings.startDate.map { Int64($0 / 86_400) }
    }

    /// Reads one line (a trailing CR is ignored); returns the fix that this line
    /// completed, if any.
    public mutating func read(line raw: Substring, lineNumber: Int) throws(NMEAError) -> Location? {
        let line = raw.last == "\r" ? raw.dropLast() : raw
        // Blank lines, AIS encapsulation (!) and proprietary sentences ($P…) are not for this reader.
        guard !line.allSatisfy({ $0 == " " || $0 == "\t" }), line.first != "!", !line.hasPrefix("$P") else { return nil }
        func fail(_ message: String) -> NMEAError { NMEAError(line: lineNumber, text: line, message: message) }
        let sentence: NMEASentence
        do {
            sentence = try NMEASentence(line, requireChecksum: settings.requireChecksum)
        } catch {
            throw fail(Self.message(for: error))
        }
        var next = epoch
        let completed: NMEAEpoch?
        do {
            completed = try Self.apply(sentence, line: line, lineNumber: lineNumber, to: &next)
        } catch {
            throw fail("\(sentence.type): \(error.message)")
        }
        epoch = next
        return try completed.flatMap { (e) throws(NMEAError) in try location(of: e) }
    }

    /// The fix still being assembled at the end of the log.
    public mutating func finish() throws(NMEAError) -> Location? {
        defer { epoch = nil }
        return try epoch.flatMap { (e) throws(NMEAError) in try location(of: e) }
    }

    /// Every fix of a log. With `stopAtFirstError`, the first bad line throws; otherwise
    /// bad lines are skipped and returned with the fixes.
    public static func locations(in text: String, settings: Settings = Settings(),
                                 stopAtFirstError: Bool = true) throws(NMEAError) -> (locations: [Location], errors: [NMEAError]) {
        var reader: NMEAReader
        do {
            reader = try NMEAReader(settings: settings)
        } catch {
            throw NMEAError(line: 0, text: "", message: error.description)
        }
        var locations: [Location] = [], errors: [NMEAError] = []
        // "\r\n" is one Character in Swift: split on either ending.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (i, line) in lines.enumerated() {
            do {
                if let fix = try reader.read(line: line, lineNumber: i + 1) { locations.append(fix) }
            } catch {
                if stopAtFirstError { throw error }
                errors.append(error)
            }
        }
        do {
            if let fix = try reader.finish() { locations.append(fix) }
        } catch {
            if stopAtFirstError { throw error }
            errors.append(error)
        }
        return (locations, errors)
    }

    /// Dates a completed epoch and makes its fix.
    private mutating func location(of e: NMEAEpoch) throws(NMEAError) -> Location? {
        var days = e.days
        if days == nil, let last = lastDays, let lastTime = lastTimeOfDay {
            days = e.timeOfDay < lastTime - 43_200 ? last + 1 : last
        } else if days == nil {
            days = lastDays
        }
        guard let days else {
            throw NMEAError(line: e.firstLine, text: e.firstText,
                            message: "no date for this fix: the log has no RMC sentence before it; give NMEAReader.Settings.startDate")
        }
        lastDays = days
        lastTimeOfDay = e.timeOfDay
        return e.location(days: days, userRangeError: settings.userRangeError)
    }

    private static func message(for problem: NMEASentence.Problem) -> String {
        switch problem {
        case .notASentence: return "not an NMEA sentence (it must start with '$')"
        case .missingChecksum: return "no checksum (*hh at the end); the line may be cut short"
        case let .badChecksum(found, computed): return "checksum \(found) does not match the computed \(computed): the line is corrupted"
        case .badAddress: return "the address must be a two-letter talker and a three-letter sentence type, such as GPRMC"
        }
    }
}
