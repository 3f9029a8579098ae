/// The storage format of one buffered channel, as printed in `in_*_type`:
/// `[be|le]:[s|u]<realbits>/<storagebits>[X<repeat>]>><shift>` (e.g. `le:s12/16>>4`).
///
/// Decoding follows the kernel ABI: read `storagebits` in the given byte order,
/// shift right by `shift`, keep `realbits`, sign-extend when signed.
public struct IIOScanType: Hashable, Sendable, Codable, CustomStringConvertible {
    public var isBigEndian: Bool
    public var isSigned: Bool
    public var realBits: Int
    public var storageBits: Int
    public var shift: Int
    public var repeatCount: Int

    public init(isBigEndian: Bool, isSigned: Bool, realBits: Int, storageBits: Int, shift: Int = 0, repeatCount: Int = 1) {
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Parses the text of an `in_*_type` file; nil when it is not of that form.
    public init?(parsing text: some StringProtocol) {
        let s = Array(text.utf8).filter { $0 != 0x0A && $0 != 0x20 }
        var i = 0
        func expect(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        func number() -> Int? {
            var v = 0, digits = 0
            while i < s.count, s[i] >= 0x30, s[i] <= 0x39, digits < 6 {
                v = v * 10 + Int(s[i] - 0x30)
                i += 1
                digits += 1
            }
            return digits > 0 ? v : nil
        }
        guard s.count >= 3 else { return nil }
        let big: Bool
        switch (s[0], s[1]) {
        case (UInt8(ascii: "b"), UInt8(ascii: "e")): big = true
        case (UInt8(ascii: "l"), UInt8(ascii: "e")): big = false
        default: return nil
        }
        i = 2
        guard expect(UInt8(ascii: ":")), i < s.count else { return nil }
        let signed: Bool
        switch s[i] {
        case UInt8(ascii: "s"), UInt8(ascii: "S"): signed = true
        case UInt8(ascii: "u"), UInt8(ascii: "U"): signed = false
        default: return nil
        }
        i += 1
        guard let real = number(), expect(UInt8(ascii: "/")), let storage = number() else { return nil }
        var rep = 1
        if i < s.count, s[i] == UInt8(ascii: "X") {
            i += 1
            guard let r = number() else { return nil }
            rep = r
        }
        guard expect(UInt8(ascii: ">")), expect(UInt8(ascii: ">")), let sh = number(), i == s.count else { return nil }
        guard let checked = Self.checked(isBigEndian: big, isSigned: signed, realBits: real, storageBits: storage, shift: sh, repeatCount: rep) else {
            return nil
        }
        self = checked
    }

    /// Repeats of one channel in a scan, at most (the kernel's largest is 255).
    public static let maximumRepeat = 1024

    /// The format with these fields, or nil when no scan can be decoded with it: storage
    /// other than 8, 16, 32 or 64 bits, no real bits or more than stored, a shift past
    /// the storage, no repeat or too many. What libiio reports comes from a device's
    /// `*_type` file and goes through here before any scan is decoded with it.
    public static func checked(isBigEndian: Bool, isSigned: Bool, realBits: Int, storageBits: Int, shift: Int,
                               repeatCount: Int) -> IIOScanType? {
        guard [8, 16, 32, 64].contains(storageBits), (1...storageBits).contains(realBits), shift >= 0,
              shift <= storageBits - realBits, (1...maximumRepeat).contains(repeatCount) else { return nil }
        return IIOScanType(isBigEndian: isBigEndian, isSigned: isSigned, realBits: realBits, storageBits: storageBits,
                           shift: shift, repeatCount: repeatCount)
    }

    /// Bytes of one element (one repeat).
    @inlinable public var elementBytes: Int { storageBits / 8 }
    /// Bytes the channel takes in a scan (all repeats).
    @inlinable public var byteCount: Int { elementBytes * repeatCount }

    /// Largest and smallest value the channel can carry (shifts, not sums: a 64-bit
    /// channel must not overflow). An unsigned channel of 63 or 64 bits reads at most `Int64.max`.
    public var maximumValue: Int64 {
        isSigned ? Int64.max >> (64 - realBits) : (realBits >= 63 ? Int64.max : (Int64(1) << realBits) - 1)
    }
    public var minimumValue: Int64 { isSigned ? Int64.min >> (64 - realBits) : 0 }

    /// Decodes the first element stored at `p`.
    @inlinable
    public func decode(_ p: UnsafeRawPointer) -> Int64 {
        let n = storageBits / 8
        var word: UInt64 = 0
        if isBigEndian {
            for k in 0..<n { word = (word << 8) | UInt64(p.load(fromByteOffset: k, as: UInt8.self)) }
        } else {
            var k = n - 1
            while k >= 0 {
                word = (word << 8) | UInt64(p.load(fromByteOffset: k, as: UInt8.self))
                k -= 1
            }
        }
        word >>= UInt64(shift)
        if realBits < 64 {
            word &= (UInt64(1) << UInt64(realBits)) - 1
            if isSigned, word & (UInt64(1) << UInt64(realBits - 1)) != 0 {
                word |= ~((UInt64(1) << UInt64(realBits)) - 1)
            }
        } else if !isSigned {
            word = min(word, UInt64(Int64.max))
        }
        return Int64(bitPattern: word)
    }

    /// Stores `value` as the kernel would (left-justified by `shift`, other bits zero).
    public func encode(_ value: Int64, into p: UnsafeMutableRawPointer) {
        let n = storageBits / 8
        var word = UInt64(bitPattern: value)
        if realBits < 64 { word &= (UInt64(1) << UInt64(realBits)) - 1 }
        word <<= UInt64(shift)
        for k in 0..<n {
            let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * k))
            p.storeBytes(of: byte, toByteOffset: isBigEndian ? n - 1 - k : k, as: UInt8.self)
        }
    }

    public var description: String {
        let rep = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(isBigEndian ? "be" : "le"):\(isSigned ? "s" : "u")\(realBits)/\(storageBits)\(rep)>>\(shift)"
    }
}
