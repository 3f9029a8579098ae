/// A first-in first-out queue in one ring of storage: appending at the back and
/// removing from the front cost what they copy, never a shift of what stays.
///
/// Why: a client's output queue may hold 64 MiB; dropping its oldest line must not
/// move the rest (issue 13: one stalled reader slowed every other client).
/// The storage grows by doubling, and shrinks again when the queue empties.
struct Ring<Element: FixedWidthInteger & Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0
    private(set) var count = 0

    /// Capacity kept when the queue empties; more is released.
    static var retainedCapacity: Int { 4096 }

    var isEmpty: Bool { count == 0 }
    var capacity: Int { storage.count }

    var first: Element? { count > 0 ? storage[head] : nil }

    mutating func append(_ element: Element) {
        reserve(count + 1)
        storage[(head + count) % storage.count] = element
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard !elements.isEmpty else { return }
        reserve(count + elements.count)
        let tail = (head + count) % storage.count
        let firstPart = min(elements.count, storage.count - tail)
        storage.withUnsafeMutableBufferPointer { s in
            s.baseAddress!.advanced(by: tail).update(from: elements.baseAddress!, count: firstPart)
            if firstPart < elements.count {
                s.baseAddress!.update(from: elements.baseAddress!.advanced(by: firstPart), count: elements.count - firstPart)
            }
        }
        count += elements.count
    }

    /// Removes the first `n` elements (at most `count`).
    mutating func removeFirst(_ n: Int) {
        let k = min(n, count)
        guard k > 0 else { return }
        count -= k
        head = count == 0 ? 0 : (head + k) % storage.count
        if count == 0, storage.count > Self.retainedCapacity { storage = [] }
    }

    /// The first `n` elements (at most `count`), copied out.
    func prefix(_ n: Int) -> [Element] {
        let k = min(n, count)
        guard k > 0 else { return [] }
        let firstPart = min(k, storage.count - head)
        return Array(storage[head..<(head + firstPart)]) + storage[0..<(k - firstPart)]
    }

    /// Calls `body` with the elements from the front up to the end of the storage
    /// (all of them unless the queue wraps round).
    func withFrontSpan<R>(_ body: (UnsafeBufferPointer<Element>) -> R) -> R {
        storage.withUnsafeBufferPointer { s in
            body(UnsafeBufferPointer(rebasing: s[head..<(head + min(count, s.count - head))]))
        }
    }

    private mutating func reserve(_ needed: Int) {
        guard needed > storage.count else { return }
        var grown = [Element](repeating: 0, count: max(needed, storage.count * 2, 64))
        if count > 0 {
            let copy = prefix(count)
            copy.withUnsafeBufferPointer { c in
                grown.withUnsafeMutableBufferPointer { g in g.baseAddress!.update(from: c.baseAddress!, count: c.count) }
            }
        }
        storage = grown
        head = 0
    }
}
