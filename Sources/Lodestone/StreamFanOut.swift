import LodestoneCore

/// The streams of one kind a manager hands out (headings, events, locations …): each
/// call to ``stream()`` gets every element yielded after it, keeping the newest
/// `limit` when its reader falls behind, until it is finished, closed, or its reader drops it.
final class StreamFanOut<Element: Sendable>: Sendable {
    /// A stream's writing end and the flag its reading end checks. Not the reading end
    /// itself: it holds the stream, and a stream its reader drops must end (and leave).
    private struct Member {
        let continuation: AsyncStream<Element>.Continuation
        let closed: Locked<Bool>
    }

    private let members = Locked<(nextID: Int, all: [Int: Member])>((0, [:]))
    let limit: Int

    init(keepingNewest limit: Int) {
        self.limit = limit
    }

    /// A new stream; it is removed from the fan-out when it terminates.
    func stream() -> AsyncStream<Element> {
        let (inner, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let closed = Locked(false)
        let reader = StreamReader(inner, closed: closed)
        let id = members.withLock { m -> Int in
            m.nextID += 1
            m.all[m.nextID] = Member(continuation: continuation, closed: closed)
            return m.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.members.withLock { $0.all.removeValue(forKey: id) }
        }
        return AsyncStream(unfolding: { await reader.next() })
    }

    /// Gives `element` to every stream (outside the lock: a stream's buffer never blocks).
    func yield(_ element: Element) {
        for m in members.withLock({ Array($0.all.values) }) { m.continuation.yield(element) }
    }

    /// Ends every stream handed out so far, once its reader has taken what it holds
    /// (the source ended: the last elements are still wanted).
    func finish() {
        for m in takeAll() { m.continuation.finish() }
    }

    /// Ends every stream handed out so far at once: what its reader has not taken yet is
    /// dropped, as Core Location delivers nothing after a stop.
    func close() {
        for m in takeAll() {
            m.closed.withLock { $0 = true }
            m.continuation.finish()
        }
    }

    /// How many streams are open: handed out, and neither ended nor dropped by their readers.
    var openStreams: Int { members.withLock { $0.all.count } }

    private func takeAll() -> [Member] {
        members.withLock { m in
            defer { m.all = [:] }
            return Array(m.all.values)
        }
    }
}

/// One stream's reading end: its elements until it is closed, then none.
///
/// Only the stream's one consumer calls ``next()`` (an unfolding stream calls it
/// one at a time), which is what makes the unchecked `Sendable` sound.
private final class StreamReader<Element: Sendable>: @unchecked Sendable {
    private var iterator: AsyncStream<Element>.Iterator
    private let closed: Locked<Bool>

    init(_ stream: AsyncStream<Element>, closed: Locked<Bool>) {
        iterator = stream.makeAsyncIterator()
        self.closed = closed
    }

    func next() async -> Element? {
        var it = iterator
        let element = await it.next()
        iterator = it
        return closed.withLock { $0 } ? nil : element
    }
}
