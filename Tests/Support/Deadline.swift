/// A time limit on the monotonic clock (``Stopwatch``): a wall-clock deadline
/// passes early when NTP steps the clock forward during a test.
public struct Deadline: Sendable {
    private let stopwatch = Stopwatch()
    private let seconds: Double

    public init(_ seconds: Double) { self.seconds = seconds }

    public var hasPassed: Bool { stopwatch.seconds > seconds }

    /// Seconds left (negative once passed).
    public var remaining: Double { seconds - stopwatch.seconds }
}
