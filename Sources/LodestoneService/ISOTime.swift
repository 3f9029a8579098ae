import LodestoneCore
import LodestoneLogs

/// `2026-11-30T04:00:12.340123Z` (UTC, microseconds) without allocating:
/// the time of every HEADING line is formatted on the hot path.
enum ISOTime {
    static let length = 27

    /// Writes the time into `out` (at least ``length`` bytes); returns the byte count.
    static func format(unixSeconds: Double, into out: UnsafeMutableRawBufferPointer) -> Int {
        let micros = Int64((unixSeconds * 1e6).rounded())
        var seconds = micros / 1_000_000, fraction = micros % 1_000_000
        if fraction < 0 { fraction += 1_000_000; seconds -= 1 }
        var days = seconds / 86_400, secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (y, m, d) = WallClockTime.civilDate(daysSinceEpoch: days)
        var i = 0
        func digits(_ v: Int64, _ width: Int) {
            var v = v
            for k in stride(from: width - 1, through: 0, by: -1) {
                out[i + k] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            }
            i += width
        }
        func char(_ c: UInt8) {
            out[i] = c
            i += 1
        }
        digits(max(0, min(9999, y)), 4); char(0x2D); digits(m, 2); char(0x2D); digits(d, 2); char(0x54)
        digits(secondOfDay / 3600, 2); char(0x3A); digits(secondOfDay / 60 % 60, 2); char(0x3A); digits(secondOfDay % 60, 2)
        char(0x2E); digits(fraction, 6); char(0x5A)
        return i
    }
}

extension JSONLineBuilder {
    /// Appends `"name":"…Z"`, the ISO 8601 UTC time with microseconds.
    func time(_ name: StaticString, unixSeconds: Double) {
        withUnsafeTemporaryAllocation(byteCount: 32, alignment: 1) { buffer in
            let n = ISOTime.format(unixSeconds: unixSeconds, into: buffer)
            plainString(name, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}
