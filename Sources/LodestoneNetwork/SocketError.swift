/// A socket that could not be created, bound, resolved or connected, with what
/// to do about it where there is something to do.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
