import Foundation

/// A fresh directory for one test, removed when the value is dropped.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    /// The directory's path.
    public var directory: String { url.path }

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lodestone-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `contents` to `name` and returns its path.
    @discardableResult
    public func file(_ name: String, _ contents: String) -> String {
        let path = path(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    /// The path of `name` in the directory (which need not exist).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the directory, sorted.
    public func contents() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

    /// The text of `name`, or nil when it cannot be read.
    public func read(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }
}
