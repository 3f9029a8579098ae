/// Wraps console lines to a terminal's width at spaces, so that nothing is cut off.
///
/// A continuation line is indented to the line's value column: past its leading
/// spaces, its first word and the spaces after it (`  next      aim the board's …`
/// continues under `aim`), or by the leading spaces alone when the line has no such label.
public enum TextWrap {
    /// `line` as one or more lines of at most `width` characters. A single word longer
    /// than the room left is broken where the width ends.
    public static func wrap(_ line: String, width: Int) -> [String] {
        let characters = Array(line)
        guard characters.count > width, width > 0 else { return [line] }
        let indent = min(continuationIndent(characters), width / 2)
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var rest = characters[...]
        var prefix = ""
        while prefix.count + rest.count > width {
            let room = width - prefix.count
            // The last space within the room (not the leading indent of the first line).
            let firstBreakable = lines.isEmpty ? leadingSpaces(characters) + 1 : 0
            let window = rest.prefix(room + 1)
            let cut = window.indices.last { window[$0] == " " && $0 - rest.startIndex >= firstBreakable }
            let end = cut ?? rest.startIndex + room
            lines.append(prefix + String(rest[..<end]).trimmingTrailingSpaces)
            rest = rest[end...].drop { $0 == " " }
            prefix = pad
        }
        if !rest.isEmpty { lines.append(prefix + String(rest)) }
        return lines
    }

    /// Every line of `lines` wrapped to `width`.
    public static func wrap(_ lines: [String], width: Int) -> [String] {
        lines.flatMap { wrap($0, width: width) }
    }

    private static func leadingSpaces(_ c: [Character]) -> Int {
        c.firstIndex { $0 != " " } ?? c.count
    }

    /// Leading spaces, a label word and two or more spaces after it; else the leading spaces.
    private static func continuationIndent(_ c: [Character]) -> Int {
        let lead = leadingSpaces(c)
        guard let wordEnd = c[lead...].firstIndex(of: " ") else { return lead }
        let valueStart = c[wordEnd...].firstIndex { $0 != " " } ?? c.count
        return valueStart - wordEnd >= 2 ? valueStart : lead
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
