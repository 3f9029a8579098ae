#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value shared between threads, reached only while holding its lock.
///
/// The standard library's `Mutex` would do, but on Linux it waits on futexes directly,
/// which ThreadSanitizer cannot see: every access under it reads as a race, and a
/// sanitizer run would report nothing else. This lock is a `pthread_mutex_t`, which the
/// sanitizers understand, so `tools/sanitize thread` reports only real races.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock; `body` must not take the lock again.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&valueStorage)
    }

    @usableFromInline func lock() { pthread_mutex_lock(mutex) }
    @usableFromInline func unlock() { pthread_mutex_unlock(mutex) }

    @usableFromInline var valueStorage: Value {
        get { value }
        _modify { yield &value }
    }
}
