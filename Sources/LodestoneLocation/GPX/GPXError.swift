/// Why a GPX file could not be read: where (1-based line and column of the
/// element or the fault) and what, in words that say how to fix it.
public struct GPXError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
