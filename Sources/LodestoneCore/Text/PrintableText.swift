/// Text from outside (gpsd's error messages, a unit in a log header, a client's
/// command) made safe to log or to quote in an error: control characters become
/// `?` (an escape sequence or a newline must not forge log lines or reach a
/// terminal), and it is cut to a length.
///
/// Why: issue 13 saw gpsd's 2 KB error text logged whole; a peer decides neither
/// how long our messages are nor what they contain.
public enum PrintableText {
    public static let defaultLimit = 200

    /// `text` with control characters (but tabs) replaced, at most `limit` characters (then `…`).
    public static func excerpt(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        var out = ""
        var count = 0
        for c in text.unicodeScalars {
            guard count < limit else { return out + "…" }
            out.unicodeScalars.append(c.properties.generalCategory == .control && c != "\t" ? "?" : c)
            count += 1
        }
        return out
    }
}
