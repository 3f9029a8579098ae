/// Something a heading client should know besides the headings themselves.
public enum HeadingEvent: Hashable, Sendable {
    /// The magnetometer needs calibrating, and why (Core Location's calibration prompt).
    case calibrationNeeded(reason: String)
    /// A magnetic disturbance started (`true`) or ended (`false`).
    case magneticDisturbance(started: Bool, reason: String)
    /// The source failed; the manager retries with back-off.
    case sourceFault(message: String)
    /// The source works again after a fault.
    case sourceResumed
    /// The source ended (end of a log) or failed for good; `error` says why, if it failed.
    case sourceEnded(error: String?)
}

extension HeadingEvent {
    /// The manager's form of a pipeline event: the reason as its short code.
    public init(_ event: MagneticEvent) {
        switch event {
        case .calibrationNeeded(let reason, _):
            self = .calibrationNeeded(reason: reason.rawValue)
        case .disturbanceStarted(let reason, _):
            self = .magneticDisturbance(started: true, reason: reason.rawValue)
        case .disturbanceEnded:
            self = .magneticDisturbance(started: false, reason: "fieldBackToNormal")
        }
    }
}
