#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine

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
            // Lines are wrapped here, not by the terminal, so that the rows drawn are
            // counted and the next redraw starts in the right place; rows left over
            // from a longer block are cleared.
            let lines = TextWrap.wrap(block, width: Self.width())
            var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
            for line in lines { text += "\r\u{1B}[2K" + line + "\n" }
            write(text + "\u{1B}[J")
            drawnLines = lines.count
        } else if now - lastLine >= lineInterval {
            lastLine = now
            write(summary + "\n")
        }
    }

    /// A line that stays (instructions, notes), wrapped on a terminal.
    func note(_ line: String) {
        let lines = isTerminal ? line.split(separator: "\n", omittingEmptySubsequences: false).flatMap { TextWrap.wrap(String($0), width: Self.width()) } : [line]
        write(lines.joined(separator: "\n") + "\n")
        drawnLines = 0
    }

    /// The columns a line may take: one less than the terminal's, so that the cursor
    /// never wraps by itself.
    static func width() -> Int { max(20, terminalColumns() - 1) }

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
