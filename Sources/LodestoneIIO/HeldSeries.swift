/// Recent readings of a slower sensor, so a faster one can be paired with the
/// latest reading taken at or before its own time (not merely the latest to arrive:
/// buffers deliver in batches, so arrival order is not time order).
/// Fixed capacity: nothing is allocated per sample.
struct HeldSeries {
    private var times: [Int64]
    private var values: [RawTriple]
    private var start = 0
    private var count = 0
    /// The reading most recently paired, held until a newer one is due.
    private(set) var current: RawTriple?
    /// Time of the newest reading appended.
    private(set) var latestTime: Int64?

    init(capacity: Int = 32) {
        times = Array(repeating: 0, count: capacity)
        values = Array(repeating: .zero, count: capacity)
    }

    mutating func reset() {
        start = 0
        count = 0
        current = nil
        latestTime = nil
    }

    mutating func append(time: Int64, _ value: RawTriple) {
        latestTime = max(latestTime ?? time, time)
        if count == times.count {
            current = values[start]
            start = (start + 1) % times.count
            count -= 1
        }
        let i = (start + count) % times.count
        times[i] = time
        values[i] = value
        count += 1
    }

    /// The latest reading taken at or before `time`, or the one held before; nil
    /// until the first reading is due (nothing is ever invented).
    mutating func value(at time: Int64) -> RawTriple? {
        while count > 0, times[start] <= time {
            current = values[start]
            start = (start + 1) % times.count
            count -= 1
        }
        return current
    }
}
