import LodestoneCore

/// The board's true motion over the last few seconds, as a list of changes.
///
/// A real sensor samples at its own data-ready time and holds the scan in its FIFO until
/// read. The feeder can wake late on a busy machine; looking the truth up at each scan's
/// due time keeps a late scan's values consistent with its timestamp.
struct TruthHistory {
    struct State {
        var time: Int64
        var attitude: Quaternion
        var angularRate: Vector3
    }

    /// How long changes are kept (ns): longer than the feeder catches up (100 periods) at
    /// 20 Hz and above. A slower part's scans owed for longer get the oldest state kept.
    static let span: Int64 = 5_000_000_000

    private(set) var states: [State]

    init(attitude: Quaternion) {
        states = [State(time: .min, attitude: attitude.normalized, angularRate: .zero)]
    }

    /// Records a change taking effect at `time` (monotonic ns, not before the last one).
    mutating func set(_ attitude: Quaternion, angularRate: Vector3, at time: Int64) {
        states.append(State(time: max(time, states[states.count - 1].time), attitude: attitude, angularRate: angularRate))
        let cutoff = time - Self.span
        // Keep the last change before the cutoff: it is the state in effect at the cutoff.
        if let firstKept = states.lastIndex(where: { $0.time <= cutoff }), firstKept > 0 {
            states.removeFirst(firstKept)
        }
    }

    /// The state in effect at `time`: the last change at or before it (the oldest kept, before).
    func state(at time: Int64) -> State {
        var i = states.count - 1
        while i > 0, states[i].time > time { i -= 1 }
        return states[i]
    }
}
