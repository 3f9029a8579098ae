import LodestoneLocation

/// One consumer's wishes, as on `CLLocationManager`: `desiredAccuracy` drops fixes
/// worse than asked, `distanceFilter` delivers a fix only once it is that many
/// metres (geodesic) from the last one delivered to this consumer (the first
/// always; 0 delivers all). The fixes come from a ``LocationSession``, which
/// has validated them and checked their order and plausibility once for all.
public struct LocationDelivery: Sendable {
    public private(set) var filter: LocationFilter

    public init(desiredAccuracy: Double = .infinity, distanceFilter: Double = 0) throws(LocationSettingError) {
        // The session refused implausible jumps already; a consumer that skips fixes must not see
        // the next one it takes as a jump.
        filter = try LocationFilter(settings: .init(desiredAccuracy: desiredAccuracy, distanceFilter: distanceFilter,
                                                    maximumSpeed: .infinity))
    }

    public var desiredAccuracy: Double { filter.settings.desiredAccuracy }
    public var distanceFilter: Double { filter.settings.distanceFilter }

    /// Whether this consumer gets `fix`.
    public mutating func deliver(_ fix: Location) -> Bool {
        filter.process(fix).contains { if case .delivered = $0 { return true } else { return false } }
    }

    /// Starts over: the next fix is delivered whatever its distance.
    public mutating func reset() {
        filter.reset()
    }
}
