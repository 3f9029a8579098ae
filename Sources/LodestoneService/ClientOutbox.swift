/// Output a client has not taken yet: a bounded queue of whole lines.
///
/// A slow or stuck client must never hold up the pipeline or other clients.
/// Lines are written straight to the socket when nothing is queued; what
/// the socket does not take waits here. When the queue would exceed its
/// limit, the oldest whole lines are dropped and counted, so the client
/// catches up with recent headings instead of falling ever further behind.
/// A line that has been partly written is always finished first: a client
/// never receives a torn line.
///
/// Every operation costs what it copies or writes, whatever the queue holds:
/// lines wait in a ring with their lengths beside them, so dropping the oldest
/// one moves two indices (a full 64 MiB queue costs no more than a 64 KiB one).
public struct ClientOutbox: Sendable {
    public let limit: Int
    /// The unwritten rest of the line whose beginning was written: it goes first and is never dropped.
    private var started: [UInt8] = []
    private var startedOffset = 0
    /// Whole lines not started yet, oldest first.
    private var lines = Ring<UInt8>()
    /// Their lengths, in the same order.
    private var lengths = Ring<UInt32>()
    /// Lines dropped since the last report.
    public private(set) var droppedLines = 0
    public private(set) var totalDroppedLines = 0

    public init(limit: Int) {
        self.limit = limit
    }

    public var isEmpty: Bool { queuedBytes == 0 }
    public var queuedBytes: Int { started.count - startedOffset + lines.count }

    /// Queues one line (ending in a newline). Returns false when it was dropped
    /// itself (longer than the limit, or no room beside the rest of a started line).
    @discardableResult
    public mutating func enqueue(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !line.isEmpty else { return true }
        guard line.count <= limit else {
            countDrop()
            return false
        }
        while queuedBytes + line.count > limit {
            guard let oldest = lengths.first else {
                countDrop()
                return false
            }
            lines.removeFirst(Int(oldest))
            lengths.removeFirst(1)
            countDrop()
        }
        lines.append(contentsOf: line)
        lengths.append(UInt32(line.count))
        return true
    }

    /// Queues the unwritten rest of a line whose beginning was just written
    /// straight to the socket. The queue must be empty.
    public mutating func enqueueRest(_ rest: UnsafeBufferPointer<UInt8>) {
        precondition(isEmpty, "the rest of a line goes first")
        started.removeAll(keepingCapacity: true)
        started.append(contentsOf: rest)
        startedOffset = 0
    }

    private mutating func countDrop() {
        droppedLines += 1
        totalDroppedLines += 1
    }

    /// Writes queued bytes with `write` until it takes no more. `write` returns
    /// bytes written, 0 when the socket is full, or -1 on error (returned as false).
    public mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) -> Bool {
        while true {
            let n: Int
            if startedOffset < started.count {
                n = started.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[startedOffset...])) }
                if n > 0 { startedOffset += n }
            } else if !lines.isEmpty {
                n = lines.withFrontSpan { write(UnsafeRawBufferPointer($0)) }
                if n > 0 { consumeWritten(n) }
            } else {
                break
            }
            if n < 0 { return false }
            if n == 0 { break }
        }
        if startedOffset >= started.count {
            started.removeAll(keepingCapacity: started.capacity <= 4096)
            startedOffset = 0
        }
        return true
    }

    /// Takes `n` written bytes off the front of `lines`: whole lines go; the rest of a
    /// line written in part moves to `started` (at most one line is copied).
    private mutating func consumeWritten(_ n: Int) {
        var left = n
        while left > 0, let length = lengths.first.map(Int.init) {
            lengths.removeFirst(1)
            if left >= length {
                lines.removeFirst(length)
                left -= length
            } else {
                lines.removeFirst(left)
                started = lines.prefix(length - left)
                startedOffset = 0
                lines.removeFirst(length - left)
                left = 0
            }
        }
    }

    /// Takes the count of dropped lines to report, resetting it.
    public mutating func takeDroppedCount() -> Int {
        defer { droppedLines = 0 }
        return droppedLines
    }
}
