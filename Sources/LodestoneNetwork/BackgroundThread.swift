#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread of its own for a loop that blocks in `poll` or on a sensor read
/// (Swift concurrency's threads must never block; Foundation's `Thread` would pull in
/// Foundation). Joined by its owner, or detached.
public struct BackgroundThread: Sendable {
    private let thread: pthread_t

    /// Starts `body`; fails with the reason when the system cannot start a thread.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Result<BackgroundThread, StartError> {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var t = pthread_t()
        let rc = pthread_create(&t, nil, { arg in
            Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return .failure(StartError(description: "cannot start a thread: \(Sockets.errorText(rc))"))
        }
        return .success(BackgroundThread(thread: t))
    }

    private init(thread: pthread_t) {
        self.thread = thread
    }

    /// Waits for the closure to return.
    public func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own; it cannot be joined after.
    public func detach() {
        pthread_detach(thread)
    }

    public struct StartError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
