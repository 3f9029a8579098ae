#if canImport(Glibc)
import Glibc
#endif

/// The demo recording committed with Lodestone: a simulated board, clearly labelled.
enum BundledRecording {
    /// Path relative to the package root.
    static let relativePath = "tools/demo/simulated-board.lslog"

    /// Finds the recording from the working directory or beside the executable.
    static func path() throws -> String {
        var candidates = [relativePath]
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            var dir = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for _ in 0..<6 {
                guard let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                candidates.append(dir + "/" + relativePath)
            }
        }
        guard let found = candidates.first(where: { access($0, R_OK) == 0 }) else {
            throw CommandFailure(.inaccessible,
                                 "the bundled demo recording \(relativePath) was not found; run from the Lodestone checkout or pass a FILE")
        }
        return found
    }
}
