/// The live view could not listen, with what to do about it.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
