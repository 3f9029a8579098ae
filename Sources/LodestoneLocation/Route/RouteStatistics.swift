/// What a route recorder shows: how far, how long, how fast.
public struct RouteStatistics: Sendable, Equatable {
    public var state: RouteRecorder.State
    /// Metres along the track (geodesic), counting only steps beyond the fixes' accuracy.
    public var distance: Double
    /// Seconds spent recording, pauses left out.
    public var elapsedTime: Double
    /// Seconds in motion: between fixes reporting at least the minimum moving speed, or,
    /// without reported speeds, in counted steps at least that fast on average.
    public var movingTime: Double
    /// m/s: the last fix's reported speed, else the speed of the step it completed, else 0
    /// (it was within the accuracy of the last counted point); nil before the first fix.
    public var currentSpeed: Double?
    /// `distance / movingTime`, m/s (nil before any moving time), as sports trackers report it.
    public var averageSpeed: Double?
    /// The largest current speed seen, m/s.
    public var maximumSpeed: Double?
    /// Fixes recorded.
    public var pointCount: Int
}
