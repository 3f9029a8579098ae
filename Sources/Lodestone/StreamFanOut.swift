import LodestoneCore

/// The streams of one kind a manager hands out (headings, events, locations …): each
/// call to ``stream()`` gets every element yielded after it, keeping the newest
/// `limit` when its reader falls behind, until it is finished or its reader drops it.
final class StreamFanOut<Element: Sendable>: Sendable {
    private let continuations = Locked<(nextID: Int, all: [Int: AsyncStream<Element>.Continuation])>((0, [:]))
    let limit: Int

    init(keepingNewest limit: Int) {
        self.limit = limit
    }

    /// A new stream; it is removed from the fan-out when it terminates.
    func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let id = continuations.withLock { c -> Int in
            c.nextID += 1
            c.all[c.nextID] = continuation
            return c.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.all.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives `element` to every stream (outside the lock: a stream's buffer never blocks).
    func yield(_ element: Element) {
        for c in continuations.withLock({ Array($0.all.values) }) { c.yield(element) }
    }

    /// Ends every stream handed out so far.
    func finish() {
        let all = continuations.withLock { c in
            defer { c.all = [:] }
            return Array(c.all.values)
        }
        for c in all { c.finish() }
    }
}
