import Foundation

/// Locates the public reference data in `../shared/data` beside the package.
///
/// Tests that need it skip with a clear message where it is absent (as on a
/// user's machine); in CI (`CI=true`) its absence is a failure instead.
public enum SharedData {
    /// The package root, found by walking up from this source file to `Package.swift`.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `$LODESTONE_SHARED_DATA`, or `../shared/data` beside the package root.
    public static let directory: URL = {
        if let env = ProcessInfo.processInfo.environment["LODESTONE_SHARED_DATA"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    public static var isInCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The URL of `relativePath` inside the shared data, or nil when it is absent.
    public static func file(_ relativePath: String) -> URL? {
        let url = directory.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Why a test that needs `relativePath` is skipped, or nil when it is present.
    public static func skipReason(_ relativePath: String) -> String? {
        file(relativePath) == nil
            ? "skipped: reference data \(directory.path)/\(relativePath) is absent (set LODESTONE_SHARED_DATA or place ../shared beside the package)"
            : nil
    }
}
