/// Why a place table could not be read: the line of the table and what is wrong.
public struct PlaceTableError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public var description: String { "place table, line \(line): \(message)" }
}
