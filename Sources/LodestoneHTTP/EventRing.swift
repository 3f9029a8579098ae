/// The recent events of the stream, framed once, read by every viewer at its own pace.
///
/// Publishing appends one event and drops the oldest when full: O(1) whatever the number
/// of viewers or how far behind they are. Each viewer keeps a sequence number; one that
/// fell behind the oldest event kept skips to it and counts what it missed.
struct EventRing: Sendable {
    private var slots: [[UInt8]]
    /// Sequence number of the oldest event kept, and of the next one to come.
    private(set) var first: UInt64 = 0
    private(set) var next: UInt64 = 0

    init(capacity: Int) {
        slots = Array(repeating: [], count: max(1, capacity))
    }

    mutating func append(_ event: [UInt8]) {
        slots[Int(next % UInt64(slots.count))] = event
        next += 1
        if next - first > UInt64(slots.count) { first = next - UInt64(slots.count) }
    }

    /// The event `sequence`, if it is still kept.
    func event(_ sequence: UInt64) -> [UInt8]? {
        guard sequence >= first, sequence < next else { return nil }
        return slots[Int(sequence % UInt64(slots.count))]
    }
}
