import LodestoneLocation

/// One consumer's wishes, as on `CLLocationManager`: `desiredAccuracy` drops fixes
/// worse than asked (and fixes that report no accuracy, unless it is infinite),
/// `distanceFilter` delivers a fix only once it is that many metres (geodesic) from
/// the last one delivered to this consumer (the first always; 0 delivers all). The
/// fixes come from a ``LocationSession``, which has validated them and checked their
/// order and plausibility once for all. A fix of an epoch already delivered (gpsd can
/// report one epoch twice, the second time with more in it) is not delivered again;
/// one whose first report was dropped is judged anew.
public struct LocationDelivery: Sendable {
    public let desiredAccuracy: Double
    public let distanceFilter: Double
    public private(set) var lastDelivered: Location?

    public init(desiredAccuracy: Double = .infinity, distanceFilter: Double = 0) throws(LocationSettingError) {
        try LocationFilter.Settings(desiredAccuracy: desiredAccuracy, distanceFilter: distanceFilter).validate()
        self.desiredAccuracy = desiredAccuracy
        self.distanceFilter = distanceFilter
    }

    /// Whether this consumer gets `fix`.
    public mutating func deliver(_ fix: Location) -> Bool {
        if let last = lastDelivered, fix.timestamp <= last.timestamp { return false }
        if desiredAccuracy.isFinite {
            guard let accuracy = fix.horizontalAccuracy, accuracy <= desiredAccuracy else { return false }
        }
        if let last = lastDelivered, distanceFilter > 0, (last.distance(to: fix) ?? 0) < distanceFilter { return false }
        lastDelivered = fix
        return true
    }

    /// Starts over: the next fix is delivered whatever its distance.
    public mutating func reset() {
        lastDelivered = nil
    }
}
