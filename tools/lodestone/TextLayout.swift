/// Text helpers for console output. The CLI does not import Foundation (it would add
/// ~8 MB of resident memory to `lodestone serve`), so it has its own.
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
