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
