/// Output a client has not taken yet: a bounded queue of whole lines.
///
/// A slow or stuck client must never hold up the pipeline or other clients.
/// Lines are written straight to the socket when nothing is queued; what
/// the socket does not take waits here. When the queue would exceed its
/// limit, the oldest whole lines are dropped and counted, so the client
/// catches up with recent headings instead of falling ever further behind.
/// A line that has been partly written is always finished first: a client
/// never receives a torn line.
public struct ClientOutbox: Sendable {
    public let limit: Int
    /// Queued bytes are `storage[start...]`.
    private var storage: [UInt8] = []
    private var start = 0
    /// True when `storage[start]` is inside a line whose beginning was written.
    private var midLine = false
    /// Lines dropped since the last report.
    public private(set) var droppedLines = 0
    public private(set) var totalDroppedLines = 0

    public init(limit: Int) {
        self.limit = limit
    }

    public var isEmpty: Bool { start == storage.count }
    public var queuedBytes: Int { storage.count - start }

    /// Queues one line (ending in a newline). Returns false when it was dropped
    /// itself (longer than the limit).
    @discardableResult
    public mutating func enqueue(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count <= limit else {
            countDrop()
            return false
        }
        while queuedBytes + line.count > limit {
            guard dropOldestLine() else {
                countDrop()
                return false
            }
        }
        if storage.capacity < limit { storage.reserveCapacity(limit) }
        if start > 0, storage.count + line.count > storage.capacity || start >= storage.count {
            storage.removeSubrange(0..<start)
            start = 0
        }
        storage.append(contentsOf: line)
        return true
    }

    /// Queues the unwritten rest of a line whose beginning was just written
    /// straight to the socket. The queue must be empty.
    public mutating func enqueueRest(_ rest: UnsafeBufferPointer<UInt8>) {
        precondition(isEmpty, "the rest of a line goes first")
        if storage.capacity < limit { storage.reserveCapacity(limit) }
        storage.removeAll(keepingCapacity: true)
        start = 0
        storage.append(contentsOf: rest)
        midLine = true
    }

    /// Removes the oldest complete line that has not started to be written.
    private mutating func dropOldestLine() -> Bool {
        var from = start
        if midLine {
            guard let end = storage[start...].firstIndex(of: 0x0A) else { return false }
            from = end + 1
        }
        guard from < storage.count, let end = storage[from...].firstIndex(of: 0x0A) else { return false }
        storage.removeSubrange(from...end)
        countDrop()
        return true
    }

    private mutating func countDrop() {
        droppedLines += 1
        totalDroppedLines += 1
    }

    /// Writes queued bytes with `write` until it takes no more. `write` returns
    /// bytes written, 0 when the socket is full, or -1 on error (returned as false).
    public mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) -> Bool {
        while start < storage.count {
            let n = storage.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            if n < 0 { return false }
            if n == 0 { break }
            start += n
            midLine = storage[start - 1] != 0x0A
        }
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
            midLine = false
        }
        return true
    }

    /// Takes the count of dropped lines to report, resetting it.
    public mutating func takeDroppedCount() -> Int {
        defer { droppedLines = 0 }
        return droppedLines
    }
}
