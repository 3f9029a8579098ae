import Dispatch

/// Seconds elapsed on the monotonic clock. The wall clock (`Date`) may be
/// stepped while a test runs (NTP), and a duration read from it jumps with it:
/// a CI run once measured 20 s for a test that had taken 1.2 s.
public struct Stopwatch: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds

    public init() {}

    public var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
