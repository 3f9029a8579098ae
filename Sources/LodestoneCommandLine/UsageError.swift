/// A mistake in how a command was called (exit code 2).
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ message: String) { description = message }
}
