import Synchronization

/// A request to stop, set from any thread (a signal handler thread, another
/// task) and read by a loop between samples.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func set() { flag.store(true, ordering: .releasing) }

    public var isSet: Bool { flag.load(ordering: .acquiring) }
}
