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
            // Lines are cut to the terminal's width: a wrapped line would take
            // two rows and the next redraw would start in the wrong place.
            let width = max(20, Self.terminalColumns() - 1)
            var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
            for line in block { text += "\r\u{1B}[2K" + (line.count > width ? String(line.prefix(width - 1)) + "…" : line) + "\n" }
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

    /// Columns of the terminal on standard error (80 when unknown).
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func write(_ text: String) {
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
