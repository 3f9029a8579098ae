#if canImport(Glibc)
import Glibc
#endif
import CFuzzerDriver

/// The input handler of this process (one target per executable).
nonisolated(unsafe) private var handler: (UnsafeBufferPointer<UInt8>) -> Void = { _ in }

/// Runs libFuzzer with this process's arguments, calling `body` with each input.
///
/// Why a main of our own: SwiftPM gives every executable target a `main`, so
/// libFuzzer's own cannot be used; its `LLVMFuzzerRunDriver` is the documented
/// way to start it from a program's main.
public func runFuzzer(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
    handler = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let rc = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        handler(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
    exit(rc)
}

/// A file in memory that holds each input, for parsers that open a path
/// (`/proc/self/fd/N`); created once per process.
public final class MemoryFile: @unchecked Sendable {
    public let fd: Int32
    public var path: String { "/proc/self/fd/\(fd)" }

    public init() {
        fd = fuzz_memory_file()
        precondition(fd >= 0, "memfd_create failed")
    }

    /// Replaces the file's content with `bytes`.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        ftruncate(fd, 0)
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(done))
            precondition(n > 0, "cannot write the memory file")
            done += n
        }
    }
}
