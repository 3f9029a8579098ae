/// One NMEA 0183 sentence split into its parts, with the checksum verified.
///
/// `$GPRMC,123519,A,4807.038,N,…*6A`: a talker (`GP`, `GN`, `GL`…), a
/// sentence type (`RMC`), comma-separated fields, and `*hh`, the XOR of every
/// byte between `$` and `*` as two hex digits (NMEA 0183 v4.11, as summarised
/// in E. S. Raymond, "NMEA Revealed").
struct NMEASentence {
    var talker: Substring
    var type: Substring
    /// The fields after the address; `fields[0]` is the first data field.
    var fields: [Substring]

    /// Why a line is not a sentence.
    enum Problem: Error, Equatable {
        case notASentence
        case missingChecksum
        case badChecksum(found: String, computed: String)
        case badAddress
    }

    /// Parses a line (without its line ending).
    init(_ line: Substring, requireChecksum: Bool) throws(Problem) {
        guard line.first == "$" else { throw .notASentence }
        var body = line.dropFirst()
        if let star = body.lastIndex(of: "*") {
            let given = body[body.index(after: star)...]
            body = body[..<star]
            let computed = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            let hex = Self.hex(computed)
            guard given.count == 2, let value = UInt8(given, radix: 16) else {
                throw .badChecksum(found: String(given), computed: hex)
            }
            guard value == computed else { throw .badChecksum(found: String(given), computed: hex) }
        } else if requireChecksum {
            throw .missingChecksum
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        let address = parts[0]
        guard address.count == 5, address.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else {
            throw .badAddress
        }
        talker = address.prefix(2)
        type = address.dropFirst(2)
        fields = Array(parts.dropFirst())
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// Field `i`, or an empty one when the sentence is shorter (older versions omit trailing fields).
    subscript(_ i: Int) -> Substring {
        i < fields.count ? fields[i] : ""
    }
}
