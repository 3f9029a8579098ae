import LodestoneSteering

/// What ``LocationFilter`` did with one fix. One fix gives one or more events,
/// in this order: discarded values, then a relocation, then exactly one of
/// delivered, withheld or rejected.
public enum LocationEvent: Sendable, Equatable {
    /// The fix passed every check and the distance filter: hand it to clients.
    case delivered(Location)
    /// A good fix, withheld because it is only `distance` metres from the last
    /// delivered one, less than `distanceFilter`. It still moves the jump reference.
    case withheldByDistanceFilter(distance: Double)
    /// The fix was refused; the filter's state is as if it never came.
    case rejected(LocationRejection)
    /// An optional measurement of the fix was invalid and dropped (the fix itself is kept).
    case discardedValue(LocationField, Double)
    /// Several fixes in a row agreed with one another but not with the last accepted
    /// position: that position was the outlier, and the filter now follows the new one,
    /// `distance` metres from `previous`.
    case relocated(previous: GeoCoordinate, distance: Double)
}
