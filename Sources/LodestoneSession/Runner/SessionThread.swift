#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of its own (POSIX) for a loop that blocks on sensor reads: the
/// service's sample thread, `HeadingManager`'s reader. Swift concurrency's
/// threads must never block; Foundation's `Thread` would pull in Foundation.
public enum SessionThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SessionError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            let box = Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SessionError(.failure, "cannot start a thread: \(String(cString: strerror(rc)))")
        }
        pthread_detach(thread)
    }
}
