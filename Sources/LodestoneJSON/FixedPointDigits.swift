/// The arithmetic of fixed-point numbers in JSON (``JSONLineBuilder/appendNumber(_:decimals:)``):
/// scaling, rounding and writing digits straight into the output, without a `String`,
/// a library call or a division instruction per digit.
@usableFromInline
enum FixedPointDigits {
    /// The longest number written (a sign, 19 digits, a point and 9 decimals) fits in
    /// `scratchSize` bytes; the writer makes room for twice that, so that copying
    /// `scratchSize` bytes from wherever the number starts stays inside it.
    @inlinable static var scratchSize: Int { 32 }

    /// "00" "01" … "99": two digits per division by 100 halve the dependent divisions.
    @inlinable static var pairs: StaticString {
        """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """
    }

    /// Writes `n` as decimal digits, the last `fractionDigits` of them after a point,
    /// at least one before it, right-aligned so that the last byte is at `end - 1`;
    /// returns where the text starts.
    @inlinable @inline(__always)
    static func write(_ n: UInt64, fractionDigits: Int, endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = end, n = n, left = fractionDigits
        while left >= 2 {
            p -= 2
            n = writePair(n, at: p)
            left -= 2
        }
        if left == 1 {
            p -= 1
            n = writeDigit(n, at: p)
        }
        if fractionDigits > 0 {
            p -= 1
            p.pointee = 0x2E
        }
        while n >= 100 {
            p -= 2
            n = writePair(n, at: p)
        }
        if n >= 10 {
            p -= 2
            _ = writePair(n, at: p)
        } else {
            p -= 1
            _ = writeDigit(n, at: p)
        }
        return p
    }

    /// Writes the last two digits of `n` at `p`; returns `n / 100`.
    @inlinable @inline(__always)
    static func writePair(_ n: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UInt64 {
        let q = n / 100
        let r = Int(truncatingIfNeeded: n &- q &* 100)
        let digits = pairs.utf8Start + 2 &* r
        p[0] = digits[0]
        p[1] = digits[1]
        return q
    }

    /// Writes the last digit of `n` at `p`; returns `n / 10`.
    @inlinable @inline(__always)
    static func writeDigit(_ n: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UInt64 {
        let q = n / 10
        p.pointee = UInt8(truncatingIfNeeded: n &- q &* 10) &+ 0x30
        return q
    }
}
