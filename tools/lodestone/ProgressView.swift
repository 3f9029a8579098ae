#if canImport(Glibc)
import Glibc
#endif

/// Live progress on standard error. On a terminal a block of lines is
/// redrawn in place; otherwise (a pipe, a log file) one summary line is
/// printed at most every `lineInterval` seconds.
final class ProgressView {
    let isTerminal: Bool
    let lineInterval: Double
    private var drawnLines = 0
    private var lastLine = -Double.infinity

    init(isTerminal: Bool = isatty(2) == 1, lineInterval: Double = 1) {
        self.isTerminal = isTerminal
        self.lineInterval = lineInterval
    }

    /// Shows the current state: `block` on a terminal, `summary` elsewhere.
    func show(block: [String], summary: String, now: Double) {
        if isTerminal {
            var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
            for line in block { text += "\r\u{1B}[2K" + line + "\n" }
            write(text)
            drawnLines = block.count
        } else if now - lastLine >= lineInterval {
            lastLine = now
            write(summary + "\n")
        }
    }

    /// A line that stays (instructions, notes).
    func note(_ line: String) {
        write(line + "\n")
        drawnLines = 0
    }

    private func write(_ text: String) {
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
