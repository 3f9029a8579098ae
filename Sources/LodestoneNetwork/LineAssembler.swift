/// Splits a byte stream into lines, refusing lines longer than a limit.
///
/// Bytes arrive in arbitrary pieces; complete lines (without their newline)
/// are handed out one by one. A line over the limit is reported once and
/// skipped up to its newline, so one bad client line cannot make the server
/// buffer without bound, and the connection stays usable. A `\r` before the
/// newline does not count towards the limit (it is handed out with the line).
public struct LineAssembler: Sendable {
    public enum Item: Equatable {
        case line
        /// A line longer than the limit was skipped.
        case tooLong
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var skipping = false

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes a line may have with its `\r`.
    private var held: Int { limit + 1 }

    /// Whether a complete line of `count` bytes ending in `last` is within the limit.
    private func fits(_ count: Int, last: UInt8?) -> Bool {
        count <= limit || (count == held && last == 0x0D)
    }

    /// Feeds bytes; calls `handle` for each complete line (or skipped over-long line), in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        var from = 0
        let input = bytes.bindMemory(to: UInt8.self)
        while from < input.count {
            guard let nl = input[from...].firstIndex(of: 0x0A) else {
                let rest = input.count - from
                if !skipping {
                    if buffer.count + rest > held {
                        buffer.removeAll(keepingCapacity: true)
                        skipping = true
                        handle(.tooLong, UnsafeBufferPointer(start: nil, count: 0))
                    } else {
                        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[from...]))
                    }
                }
                return
            }
            if skipping {
                skipping = false
            } else if buffer.isEmpty {
                let line = UnsafeBufferPointer(rebasing: input[from..<nl])
                if fits(line.count, last: line.last) {
                    handle(.line, line)
                } else {
                    handle(.tooLong, UnsafeBufferPointer(start: nil, count: 0))
                }
            } else if buffer.count + (nl - from) > held {
                buffer.removeAll(keepingCapacity: true)
                handle(.tooLong, UnsafeBufferPointer(start: nil, count: 0))
            } else {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[from..<nl]))
                if fits(buffer.count, last: buffer.last) {
                    buffer.withUnsafeBufferPointer { handle(.line, $0) }
                } else {
                    handle(.tooLong, UnsafeBufferPointer(start: nil, count: 0))
                }
                buffer.removeAll(keepingCapacity: true)
            }
            from = nl + 1
        }
    }

    /// Bytes of an unfinished line held.
    public var pendingCount: Int { buffer.count }
}
