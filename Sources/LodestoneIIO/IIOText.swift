/// Locale-independent parsing of sysfs attribute text.
///
/// Swift's `Double(_:)` and `Int64(_:)` parse with C rules whatever `LC_NUMERIC`
/// says, unlike `strtod`, so a German locale cannot turn `0.000146` into 0.
public enum IIOText {
    /// Trims spaces, tabs, newlines and NULs at both ends.
    public static func trimmed(_ s: some StringProtocol) -> Substring {
        let sub = Substring(s)
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\0" }
        guard let first = sub.firstIndex(where: { !isSpace($0) }), let last = sub.lastIndex(where: { !isSpace($0) }) else { return "" }
        return sub[first...last]
    }

    /// A decimal number such as `0.000146`, `-0.5`, `15.000000`, `100`, `1e-3`.
    public static func double(_ s: some StringProtocol) -> Double? {
        let t = trimmed(s)
        guard !t.isEmpty, let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// A whole number such as `-2995`.
    public static func integer(_ s: some StringProtocol) -> Int64? {
        Int64(trimmed(s))
    }

    /// A space-separated list of numbers (`_available` files), keeping each token's text.
    public static func numberList(_ s: some StringProtocol) -> [(text: String, value: Double)] {
        trimmed(s).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { tok in
            double(tok).map { (String(tok), $0) }
        }
    }

    /// Parses a whole number from raw bytes without allocating (the polled hot path).
    @inlinable
    public static func integer(bytes p: UnsafePointer<CChar>, count: Int) -> Int64? {
        var i = 0
        while i < count, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        var negative = false
        if i < count, p[i] == 0x2D { negative = true; i += 1 } else if i < count, p[i] == 0x2B { i += 1 }
        var value: Int64 = 0
        var digits = 0
        while i < count {
            let c = p[i]
            guard c >= 0x30, c <= 0x39 else { break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(c - 0x30))
            if o1 || o2 { return nil }
            value = a
            digits += 1
            i += 1
        }
        while i < count, p[i] == 0x0A || p[i] == 0x20 || p[i] == 0x0D || p[i] == 0 { i += 1 }
        guard digits > 0, i == count else { return nil }
        return negative ? -value : value
    }
}
