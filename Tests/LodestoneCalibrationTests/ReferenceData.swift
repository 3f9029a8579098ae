import Foundation
import LodestoneTestSupport

/// CSV files from `../shared/data`, for tests on real recordings.
enum ReferenceData {
    /// True when the file is there, or in CI (where a missing file must fail the test, not skip it).
    static func available(_ relativePath: String) -> Bool {
        SharedData.file(relativePath) != nil || SharedData.isInCI
    }

    struct MissingFile: Error, CustomStringConvertible {
        let description: String
    }

    /// Numeric rows of a CSV with a header line (`nan` parses as NaN).
    static func rows(_ relativePath: String) throws -> [[Double]] {
        guard let url = SharedData.file(relativePath) else {
            throw MissingFile(description: SharedData.skipReason(relativePath) ?? relativePath)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) ?? .nan }
        }
    }
}
