/// A recorder command that does not fit its state (pause while not recording…).
public struct RouteRecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var command: String
    public var state: RouteRecorder.State
    /// Command times must not go back.
    public var timeWentBack: Bool

    public var description: String {
        timeWentBack
            ? "\(command): its time is before the recorder's last event"
            : "cannot \(command) a recording that is \(state.rawValue)"
    }
}
