/// Locale-independent parsing of decimal numbers straight from bytes.
///
/// The common case (a mantissa of at most 2^53, a small exponent) is exact by
/// Clinger's fast path: an integer up to 2^53 times or divided by an exactly
/// representable power of ten rounds once, correctly. Anything else goes to
/// the standard library's correctly rounded parser, so every input gets the
/// same `Double` that `Double(String)` would give.
public enum DecimalParser {
    /// 10^e for 0 ≤ e ≤ 22, exactly (a table, not a loop of multiplications).
    @inline(__always)
    static func powerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// Parses `bytes` (surrounding spaces allowed); nil when it is not a number.
    /// `nan` and `inf` parse (as non-finite values) so callers can say so.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard var p = bytes.baseAddress else { return nil }
        var end = p + bytes.count
        while p < end, p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
        while end > p, end[-1] == 0x20 || end[-1] == 0x09 { end -= 1 }
        guard p < end else { return nil }
        if let (value, stop) = parsePlain(from: p, to: end), stop == end { return value }
        return slowParse(UnsafeBufferPointer(start: p, count: end - p))
    }

    /// The number that starts at `start`, when it is plain (an optional sign,
    /// digits with an optional point, an optional exponent: `-12.345e-6`) and
    /// Clinger's fast path converts it exactly: at most 19 digits, a mantissa
    /// of at most 2^53 and a power of ten of at most 22. Returns the value and
    /// where the number stops (the caller checks what follows), or nil for
    /// anything else, which the caller gives to the general parser.
    /// Reading up to the first byte that is not part of the number lets a
    /// CSV reader parse a field and find its end in one pass. With
    /// `endsBeforeNonDigit` the byte at `end` may be read and is not a digit (a
    /// line in ``LineReader``'s buffer): digits are then read without a test for
    /// the end at each.
    @inline(__always)
    public static func parsePlain(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>,
                                  endsBeforeNonDigit: Bool = false) -> (value: Double, stop: UnsafePointer<UInt8>)? {
        var p = start
        guard p < end else { return nil }
        let negative = p.pointee == 0x2D
        if negative || p.pointee == 0x2B { p += 1 }
        var mantissa: UInt64 = 0
        let integerStart = p
        while endsBeforeNonDigit || p < end, case let digit = p.pointee &- 0x30, digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(truncatingIfNeeded: digit)
            p += 1
        }
        var digits = p - integerStart
        var scale = 0
        if p < end, p.pointee == 0x2E {
            p += 1
            let fractionStart = p
            while endsBeforeNonDigit || p < end, case let digit = p.pointee &- 0x30, digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(truncatingIfNeeded: digit)
                p += 1
            }
            digits += p - fractionStart
            scale = fractionStart - p
        }
        // Up to 19 digits cannot overflow the mantissa.
        guard digits > 0, digits <= 19, mantissa <= 1 << 53 else { return nil }
        if p < end, p.pointee | 0x20 == 0x65 {
            p += 1
            var exponentNegative = false
            if p < end, p.pointee == 0x2D { exponentNegative = true; p += 1 } else if p < end, p.pointee == 0x2B { p += 1 }
            let exponentStart = p
            var exponent = 0
            // Three digits at most; a fourth stops the number where the caller sees it.
            while p < end, p - exponentStart < 3, case let digit = p.pointee &- 0x30, digit < 10 {
                exponent = exponent &* 10 &+ Int(truncatingIfNeeded: digit)
                p += 1
            }
            guard p > exponentStart else { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        guard scale >= -22, scale <= 22 else { return nil }
        // mantissa ≤ 2^53: exact as a Double, and as a signed integer (the cheaper conversion).
        var value = Double(Int64(bitPattern: mantissa))
        if scale > 0 {
            value *= powerOfTen(scale)
        } else if scale < 0 {
            value /= powerOfTen(-scale)
        }
        return (negative ? -value : value, p)
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
