#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread running one closure, joined by its owner.
public struct BackgroundThread: Sendable {
    private let thread: pthread_t

    /// Starts `body`; nil with the reason when the system cannot start a thread.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Result<BackgroundThread, ThreadStartError> {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var t = pthread_t()
        let rc = pthread_create(&t, nil, { arg in
            Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return .failure(ThreadStartError(description: String(cString: strerror(rc))))
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

    public struct ThreadStartError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
