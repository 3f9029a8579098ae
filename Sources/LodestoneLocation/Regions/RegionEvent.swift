/// What ``RegionMonitor`` reports. Times are the fix times (Unix seconds) that
/// caused the event; distances are from the region's centre, metres.
public enum RegionEvent: Sendable, Equatable {
    /// Crossed into the region (only when `notifyOnEntry`).
    case entered(identifier: String, time: Double, distance: Double)
    /// Crossed out of the region (only when `notifyOnExit`).
    case exited(identifier: String, time: Double, distance: Double)
    /// Inside without a break for the region's `dwellTime`; `duration` is the time inside so far.
    case dwelled(identifier: String, time: Double, duration: Double)
    /// The answer to ``RegionMonitor/requestState(identifier:)`` once a fix decided it.
    case determinedState(identifier: String, state: RegionState)

    /// The region the event is about.
    public var identifier: String {
        switch self {
        case .entered(let id, _, _), .exited(let id, _, _), .dwelled(let id, _, _), .determinedState(let id, _): return id
        }
    }
}
