/// A problem with a log file, located by file and line so the user can fix it.
public struct LogError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case cannotOpen
        case emptyFile
        case noSamples
        case missingHeader
        case missingColumns
        case duplicateColumn
        case wrongColumnCount
        case notANumber
        case notFinite
        /// A number outside what the column allows (a negative speed, a track past 360°).
        case outOfRange
        case timeWentBackwards
        case lineTooLong
        case badMetadata
        case unsupportedUnit
        case incompatibleAppend
        case writeFailed
    }

    public var kind: Kind
    public var file: String
    /// 1-based line number, when the problem is on a line.
    public var line: Int?
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, the form compilers use, so editors can jump to it.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
