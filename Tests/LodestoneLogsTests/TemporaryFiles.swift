import Foundation

/// A fresh temporary directory for one test, removed when the value is dropped.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lodestone-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `contents` to `name` and returns its path.
    func file(_ name: String, _ contents: String) -> String {
        let path = url.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
