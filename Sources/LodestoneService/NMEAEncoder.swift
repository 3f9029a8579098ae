import LodestoneCore

/// NMEA 0183 heading sentences: HDM, HDT and HDG, and XDR for pitch and roll.
///
/// - `$HCHDM,x.x,M*hh`: magnetic heading.
/// - `$HCHDT,x.x,T*hh`: true heading; only when it is known.
/// - `$HCHDG,x.x,,,v.v,E*hh`: magnetic sensor heading, deviation and its E/W (empty: the
///   calibration already removed it), variation (declination) east or west,
///   empty when unknown.
/// - `$HCXDR,A,p.p,D,PTCH,A,r.r,D,ROLL*hh`: two angular-displacement transducers in
///   degrees, pitch (bow up positive) and roll (starboard down positive). The names are
///   the ones OpenCPN's dashboard (a name containing PTCH or ROLL), Signal K's XDR
///   dictionary (PTCH, ROLL) and gpsd ≥ 3.25 (PTCH or PITCH, ROLL, into ATT) read.
///
/// The checksum is the XOR of every byte between `$` and `*`, as two
/// upper-case hex digits; lines end in CR LF. Headings have one decimal,
/// in [0, 360) after rounding. Sentence layouts per NMEA 0183 v4.11 as
/// summarised by gpsd's "NMEA 0183 revealed" (Raymond, 2024).
public struct NMEAEncoder: Sendable {
    public let talker: (UInt8, UInt8)

    public init(talker: String = "HC") {
        let u = Array(talker.utf8)
        self.talker = u.count == 2 ? (u[0], u[1]) : (0x48, 0x43)
    }

    /// Appends the sentences for one heading to `out`.
    public func append(magneticHeading: Double, trueHeading: Double?, variation: Double?, to out: inout [UInt8]) {
        guard magneticHeading.isFinite else { return }
        sentence(&out, "HDM") { s in
            Self.tenths(Self.heading(magneticHeading), &s)
            s.append(contentsOf: [0x2C, 0x4D]) // ,M
        }
        if let t = trueHeading, t.isFinite {
            sentence(&out, "HDT") { s in
                Self.tenths(Self.heading(t), &s)
                s.append(contentsOf: [0x2C, 0x54]) // ,T
            }
        }
        sentence(&out, "HDG") { s in
            Self.tenths(Self.heading(magneticHeading), &s)
            s.append(contentsOf: [0x2C, 0x2C, 0x2C]) // ,,, (no deviation)
            if let v = variation, v.isFinite {
                let tenths = (abs(v) * 10).rounded()
                Self.tenths(tenths, &s)
                // A variation that rounds to 0.0 is written as east.
                s.append(contentsOf: [0x2C, v < 0 && tenths > 0 ? 0x57 : 0x45]) // ,W / ,E
            } else {
                s.append(0x2C)
            }
        }
    }

    /// Appends the group for one heading: HDM, HDT (when true heading is known), HDG, then XDR
    /// with the board's pitch and roll. Nothing while the heading is invalid.
    func appendGroup(_ h: Heading, tilt: Tilt, to out: inout [UInt8]) {
        guard h.isValid else { return }
        append(magneticHeading: h.magneticHeading, trueHeading: h.trueHeading, variation: h.reportedDeclination, to: &out)
        appendAttitude(pitch: tilt.pitch, roll: tilt.roll, to: &out)
    }

    /// Appends `$--XDR` with pitch and roll (degrees, see ``Tilt`` for the signs) to `out`.
    public func appendAttitude(pitch: Double, roll: Double, to out: inout [UInt8]) {
        guard pitch.isFinite, roll.isFinite else { return }
        sentence(&out, "XDR") { s in
            s.append(contentsOf: [0x41, 0x2C]) // A,
            Self.signedTenths(pitch, &s)
            s.append(contentsOf: Array(",D,PTCH,A,".utf8))
            Self.signedTenths(roll, &s)
            s.append(contentsOf: Array(",D,ROLL".utf8))
        }
    }

    /// Writes `degrees` with one decimal and a leading `-` when it is negative after rounding.
    static func signedTenths(_ degrees: Double, _ s: inout [UInt8]) {
        let tenths = (min(abs(degrees), 9999) * 10).rounded()
        if degrees < 0, tenths > 0 { s.append(0x2D) } // -
        Self.tenths(tenths, &s)
    }

    /// Heading in tenths of a degree, rounded, wrapped so that 359.96 becomes 0.0.
    static func heading(_ degrees: Double) -> Double {
        var t = (degrees * 10).rounded()
        t = t.truncatingRemainder(dividingBy: 3600)
        if t < 0 { t += 3600 }
        return t
    }

    /// Writes a non-negative whole number of tenths as `d.d`.
    static func tenths(_ tenths: Double, _ s: inout [UInt8]) {
        let n = Int(saturating: tenths)
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var whole = n / 10
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(whole % 10) + 0x30
                whole /= 10
                count += 1
            } while whole > 0 && count < 8
            for k in stride(from: count - 1, through: 0, by: -1) { s.append(d[k]) }
        }
        s.append(0x2E)
        s.append(UInt8(n % 10) + 0x30)
    }

    private func sentence(_ out: inout [UInt8], _ type: StaticString, _ body: (inout [UInt8]) -> Void) {
        let start = out.count
        out.append(0x24) // $
        out.append(talker.0)
        out.append(talker.1)
        type.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(0x2C)
        body(&out)
        out.append(contentsOf: Self.checksumSuffix(out[(start + 1)...]))
    }

    /// `*hh\r\n` for the bytes between `$` and `*`.
    public static func checksumSuffix<C: Collection>(_ payload: C) -> [UInt8] where C.Element == UInt8 {
        let c = payload.reduce(UInt8(0), ^)
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        return [0x2A, hex[Int(c >> 4)], hex[Int(c & 15)], 0x0D, 0x0A]
    }

    /// Whether a sentence (with or without CR LF) has a correct checksum.
    public static func hasValidChecksum(_ sentence: String) -> Bool {
        let b = Array(sentence.utf8.filter { $0 != 0x0D && $0 != 0x0A })
        guard b.first == 0x24, let star = b.lastIndex(of: 0x2A), star + 3 == b.count else { return false }
        return Array(checksumSuffix(b[1..<star]).prefix(3)) == Array(b[star...])
    }
}
