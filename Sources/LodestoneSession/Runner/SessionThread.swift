import LodestoneNetwork

/// A detached thread of its own for a loop that blocks on sensor reads: the
/// service's sample thread, `HeadingManager`'s reader.
public enum SessionThread {
    /// Starts `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SessionError) {
        switch BackgroundThread.start(body) {
        case .success(let thread): thread.detach()
        case .failure(let e): throw SessionError(.failure, e.description)
        }
    }
}
