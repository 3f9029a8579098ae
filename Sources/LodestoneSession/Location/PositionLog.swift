import LodestoneCalibrationStore
import LodestoneLocation
import LodestonePosition

/// A recorded track to replay as the position source (`--position-log`,
/// ``PositionSetting/replay(_:)``): an NMEA 0183 log or a GPX file, told apart
/// by their first character (`$` or `!` for NMEA, `<` for XML).
///
/// NMEA logs from real loggers often hold a corrupted or cut line: such lines
/// are skipped and named in a note (the first one, and how many), as are fixes
/// whose time does not move forward; a log without a single usable fix is an
/// error. A GPX file must parse completely; its track points with a time are
/// the fixes.
public enum PositionLog {
    /// Larger files are refused: a day at 10 Hz in NMEA is about 150 MB.
    public static let maximumFileSize = 256 << 20

    public static func load(_ path: String) throws(SessionError) -> (fixes: [Location], notes: [String]) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: maximumFileSize)
        } catch {
            let kind: SessionError.Kind
            if case .tooLarge = error { kind = .badInput } else { kind = .inaccessible }
            throw SessionError(kind, "position log \(path): cannot be read: \(error)")
        }
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        let fixes: [Location], notes: [String]
        switch first {
        case UInt8(ascii: "<"): (fixes, notes) = try gpx(bytes, path: path)
        case UInt8(ascii: "$"), UInt8(ascii: "!"): (fixes, notes) = try nmea(bytes, path: path)
        default:
            throw SessionError(.badInput, "position log \(path): neither GPX (XML, starting with '<') nor an NMEA 0183 log (lines starting with '$')")
        }
        let (ordered, dropped) = forward(fixes)
        let note = dropped == 0 ? [] : ["position log \(path): \(dropped) fix(es) whose time did not move forward were skipped"]
        return (ordered, notes + note)
    }

    private static func gpx(_ bytes: [UInt8], path: String) throws(SessionError) -> ([Location], [String]) {
        let document: GPXDocument
        do {
            document = try GPXReader.read(bytes: bytes)
        } catch {
            throw SessionError(.badInput, "position log \(path): \(error)")
        }
        let fixes = document.trackLocations
        guard !fixes.isEmpty else {
            throw SessionError(.badInput, "position log \(path): no track point with a time (<trkpt> with <time>) to replay")
        }
        return (fixes, [])
    }

    private static func nmea(_ bytes: [UInt8], path: String) throws(SessionError) -> ([Location], [String]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let (fixes, errors): ([Location], [NMEAError])
        do {
            (fixes, errors) = try NMEAReader.locations(in: text, stopAtFirstError: false)
        } catch {
            throw SessionError(.badInput, "position log \(path): \(error)")
        }
        guard !fixes.isEmpty else {
            let why = errors.first.map { ": \(errors.count) line(s) could not be used; the first, \($0)" } ?? " (no RMC or GGA sentences)"
            throw SessionError(.badInput, "position log \(path): no fix to replay\(why)")
        }
        let notes = errors.first.map { ["position log \(path): \(errors.count) malformed line(s) skipped; the first, \($0)"] } ?? []
        return (fixes, notes)
    }

    /// The fixes whose time is after the one before, and how many were not.
    private static func forward(_ fixes: [Location]) -> ([Location], Int) {
        var kept: [Location] = []
        kept.reserveCapacity(fixes.count)
        for fix in fixes where fix.timestamp.isFinite && fix.timestamp > (kept.last?.timestamp ?? -.infinity) {
            kept.append(fix)
        }
        return (kept, fixes.count - kept.count)
    }
}
