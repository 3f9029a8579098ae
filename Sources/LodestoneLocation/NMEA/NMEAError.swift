/// Why a line of an NMEA 0183 log was refused: which line, which sentence, what.
public struct NMEAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the log.
    public var line: Int
    /// The line as read (cut to 100 characters).
    public var text: String
    public var message: String

    public init(line: Int, text: some StringProtocol, message: String) {
        self.line = line
        self.text = String(text.prefix(100))
        self.message = message
    }

    public var description: String { "line \(line) (\(text)): \(message)" }
}
