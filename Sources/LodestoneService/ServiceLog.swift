#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore

/// Log lines on standard error, one `write` each, in a form journald understands.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with the syslog
/// priority in angle brackets (`<4>lodestone: …`), which journald turns into
/// the entry's priority (sd-daemon(3)); elsewhere the lines are plain
/// (`lodestone: warning: …`).
public struct ServiceLog: Sendable {
    public enum Level: Int32, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        var word: String {
            switch self {
            case .error: return "error: "
            case .warning: return "warning: "
            default: return ""
            }
        }
    }

    public var journal: Bool
    public var threshold: Level
    public var fd: Int32

    public init(journal: Bool? = nil, threshold: Level = .info, fd: Int32 = 2) {
        self.journal = journal ?? (getenv("JOURNAL_STREAM") != nil)
        self.threshold = threshold
        self.fd = fd
    }

    public func log(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        let prefix = journal ? "<\(level.rawValue)>lodestone: " : "lodestone: " + level.word
        // One line per message: a newline in the text would start an entry without a priority;
        // other control characters (from a peer's text) must not reach a terminal either.
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let text = prefix + lines.map { PrintableText.excerpt($0, limit: .max) }.joined(separator: " / ") + "\n"
        var copy = text
        copy.withUTF8 { b in
            var offset = 0
            while offset < b.count {
                let n = write(fd, b.baseAddress! + offset, b.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    public func error(_ m: String) { log(.error, m) }
    public func warning(_ m: String) { log(.warning, m) }
    public func notice(_ m: String) { log(.notice, m) }
    public func info(_ m: String) { log(.info, m) }
    public func debug(_ m: String) { log(.debug, m) }
}
