import LodestoneCore
import Foundation

/// Builds the example package under `Examples/` (once per test run) with `swift build`,
/// as a user would, into `.build/examples` so that later runs are incremental.
public enum ExamplePackage {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static let built = Locked<[String: Result<URL, Failure>]>([:])

    /// The executable `product` of `Examples/<package>`, built in debug mode.
    public static func executable(package: String, product: String) throws -> URL {
        try built.withLock { cache in
            if let done = cache[package] { return try done.get() }
            let result = Result { () throws(Failure) in try build(package: package, product: product) }
            cache[package] = result
            return try result.get()
        }
    }

    private static func build(package: String, product: String) throws(Failure) -> URL {
        let root = SharedData.packageRoot
        let scratch = root.appendingPathComponent(".build/examples")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "build", "--package-path", root.appendingPathComponent("Examples/\(package)").path,
                       "--scratch-path", scratch.path, "--product", product]
        let output = Pipe()
        p.standardOutput = output
        p.standardError = output
        do {
            try p.run()
        } catch {
            throw Failure(description: "cannot run swift build: \(error)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(description: "swift build of Examples/\(package) failed:\n\(text.suffix(3000))")
        }
        return scratch.appendingPathComponent("debug/\(product)")
    }
}
