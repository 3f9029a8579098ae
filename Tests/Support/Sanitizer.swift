import Foundation

/// The sanitizer the tests run under (`tools/sanitize` sets `LODESTONE_SANITIZER`), or nil.
///
/// Under AddressSanitizer freed memory waits in a quarantine (256 MB by default) before
/// reuse, and every access is slower: a test that measures memory growth or time checks
/// the sanitizer's allocator, not the code. Such checks are skipped with a message; every
/// other expectation of the test still runs.
public enum Sanitizer {
    public static var active: String? {
        ProcessInfo.processInfo.environment["LODESTONE_SANITIZER"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
