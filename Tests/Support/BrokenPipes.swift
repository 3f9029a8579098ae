import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A test that writes to a child's stdin must not die when the child has
/// already exited: writing to a pipe nobody reads raises SIGPIPE, whose default
/// action ends the whole test process (every suite with it). Ignored, the write
/// fails with EPIPE instead, which the writer handles.
public enum BrokenPipes {
    /// Touch once before writing to a pipe; ignores SIGPIPE for the process.
    public static let ignored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}
