/// Text helpers for console output (padding to columns, trimming), so that a command's
/// printing does not need Foundation.
extension StringProtocol {
    /// The text padded with spaces, or cut, to exactly `width` characters.
    func padded(to width: Int) -> String {
        let n = count
        return n >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - n)
    }

    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
