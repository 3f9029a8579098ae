/// Locale-independent parsing of decimal numbers straight from bytes.
///
/// The common case (up to 15 significant digits, small exponent) is exact by
/// Clinger's fast path: an integer below 2^53 times or divided by an exactly
/// representable power of ten rounds once, correctly. Anything else goes to
/// the standard library's correctly rounded parser, so every input gets the
/// same `Double` that `Double(String)` would give.
public enum DecimalParser {
    /// 10^e for 0 ≤ e ≤ 22, exactly: every partial product is an exact `Double`.
    @inline(__always)
    static func powerOfTen(_ e: Int) -> Double {
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }

    /// Parses `bytes` (surrounding spaces allowed); nil when it is not a number.
    /// `nan` and `inf` parse (as non-finite values) so callers can say so.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard var p = bytes.baseAddress else { return nil }
        var end = p + bytes.count
        while p < end, p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
        while end > p, end[-1] == 0x20 || end[-1] == 0x09 { end -= 1 }
        guard p < end else { return nil }
        let first = p
        var negative = false
        if p.pointee == 0x2D { negative = true; p += 1 } else if p.pointee == 0x2B { p += 1 }
        var mantissa: UInt64 = 0
        var significant = 0, fractionDigits = 0
        let digitsStart = p
        while p < end, p.pointee &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(p.pointee &- 0x30)
            if mantissa != 0 { significant += 1 }
            p += 1
        }
        var sawDigit = p > digitsStart
        if p < end, p.pointee == 0x2E {
            p += 1
            let fractionStart = p
            while p < end, p.pointee &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(p.pointee &- 0x30)
                if mantissa != 0 { significant += 1 }
                p += 1
            }
            fractionDigits = p - fractionStart
            sawDigit = sawDigit || fractionDigits > 0
        }
        var exponent = 0
        if sawDigit, p < end, p.pointee | 0x20 == 0x65 {
            p += 1
            var expNegative = false
            if p < end, p.pointee == 0x2D { expNegative = true; p += 1 } else if p < end, p.pointee == 0x2B { p += 1 }
            let expStart = p
            while p < end, p.pointee &- 0x30 < 10 {
                if exponent < 100_000 { exponent = exponent &* 10 &+ Int(p.pointee &- 0x30) }
                p += 1
            }
            guard p > expStart else { return nil }
            if expNegative { exponent = -exponent }
        }
        let scale = exponent - fractionDigits
        guard sawDigit, p == end, significant <= 15, scale >= -22, scale <= 22 else {
            return slowParse(UnsafeBufferPointer(start: first, count: end - first))
        }
        var value = Double(mantissa)
        if scale > 0 {
            value *= powerOfTen(scale)
        } else if scale < 0 {
            value /= powerOfTen(-scale)
        }
        return negative ? -value : value
    }

    static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses a string the same way.
    public static func parse(_ string: String) -> Double? {
        var s = string
        return s.withUTF8 { parse($0) }
    }
}
