/// Locale-independent parsing of decimal numbers straight from bytes.
///
/// The common case (up to 15 significant digits, small exponent) is exact by
/// Clinger's fast path: an integer below 2^53 times or divided by an exactly
/// representable power of ten rounds once, correctly. Anything else goes to
/// the standard library's correctly rounded parser, so every input gets the
/// same `Double` that `Double(String)` would give.
public enum DecimalParser {
    @usableFromInline
    static let powersOfTen: [Double] = (0...22).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }

    /// Parses `bytes` (surrounding spaces allowed); nil when it is not a number.
    /// `nan` and `inf` parse (as non-finite values) so callers can say so.
    @inlinable
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, n = bytes.count
        while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        while n > i, bytes[n - 1] == 0x20 || bytes[n - 1] == 0x09 { n -= 1 }
        guard i < n else { return nil }
        let first = i
        var negative = false
        if bytes[i] == 0x2D { negative = true; i += 1 } else if bytes[i] == 0x2B { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0, sawDigit = false
        while i < n, bytes[i] &- 0x30 < 10 {
            if mantissa != 0 || bytes[i] != 0x30 { digits += 1 }
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
            sawDigit = true
            i += 1
        }
        if i < n, bytes[i] == 0x2E {
            i += 1
            while i < n, bytes[i] &- 0x30 < 10 {
                if mantissa != 0 || bytes[i] != 0x30 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
                fractionDigits += 1
                sawDigit = true
                i += 1
            }
        }
        var exponent = 0
        if sawDigit, i < n, bytes[i] | 0x20 == 0x65 {
            i += 1
            var expNegative = false
            if i < n, bytes[i] == 0x2D { expNegative = true; i += 1 } else if i < n, bytes[i] == 0x2B { i += 1 }
            var sawExpDigit = false
            while i < n, bytes[i] &- 0x30 < 10 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- 0x30) }
                sawExpDigit = true
                i += 1
            }
            guard sawExpDigit else { return nil }
            if expNegative { exponent = -exponent }
        }
        guard sawDigit, i == n, digits <= 15 else {
            return slowParse(UnsafeBufferPointer(rebasing: bytes[first..<n]))
        }
        let scale = exponent - fractionDigits
        var value = Double(mantissa)
        if scale == 0 {
        } else if scale > 0, scale <= 22 {
            value *= powersOfTen[scale]
        } else if scale < 0, scale >= -22 {
            value /= powersOfTen[-scale]
        } else {
            return slowParse(UnsafeBufferPointer(rebasing: bytes[first..<n]))
        }
        return negative ? -value : value
    }

    @usableFromInline
    static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses a string the same way.
    public static func parse(_ string: String) -> Double? {
        var s = string
        return s.withUTF8 { parse($0) }
    }
}
