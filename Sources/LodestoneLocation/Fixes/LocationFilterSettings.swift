extension LocationFilter {
    /// The client's wishes (`desiredAccuracy`, `distanceFilter`, as on
    /// `CLLocationManager`) and the limits of what a real fix can be.
    public struct Settings: Sendable, Equatable {
        /// Fixes whose horizontal accuracy is worse (larger) than this many metres are
        /// dropped; so are fixes that report no accuracy, unless this is infinite.
        /// Default: infinity (keep every fix, as `kCLLocationAccuracyBest` does).
        public var desiredAccuracy: Double
        /// A fix is delivered only once it is at least this many metres (geodesic)
        /// from the last delivered fix; the first is always delivered. 0 delivers all.
        public var distanceFilter: Double
        /// The fastest plausible ground speed, m/s, for the jump check. Default 515 m/s
        /// (1000 knots): the export-control (COCOM) limit above which civil GNSS
        /// receivers stop reporting fixes, and beyond any airliner's ground speed, so a
        /// real platform carrying a civil receiver cannot exceed it. A jump needing more,
        /// after allowing each fix its horizontal accuracy, is a receiver glitch
        /// (multipath, a cold-start solution) and is refused.
        public var maximumSpeed: Double
        /// How many consecutive fixes, refused as jumps but consistent with each other,
        /// prove that the *reference* was the outlier (a bad first fix, a receiver moved
        /// while off); the filter then follows them. Default 3: one glitch is common, two
        /// in a row that agree on a new place are rare, three are a real move.
        public var relocationCount: Int
        /// How far, seconds, a fix may be stamped ahead of the `now` passed in. Default 5 s:
        /// an NTP-synchronised clock is within milliseconds of GNSS time and an unsynced
        /// real-time clock drifts seconds a day; more is a wrong date. Pass no `now` when
        /// the system clock is not trusted (a board without a real-time clock).
        public var maximumClockLead: Double
        /// The oldest a fix may be at `now`, seconds. Default infinity (replayed logs carry
        /// old times); live sources should set it, e.g. 10 s, to refuse stale fixes and the
        /// dates 1024 weeks back that a GPS week rollover produces.
        public var maximumAge: Double

        public init(desiredAccuracy: Double = .infinity, distanceFilter: Double = 0,
                    maximumSpeed: Double = 515, relocationCount: Int = 3,
                    maximumClockLead: Double = 5, maximumAge: Double = .infinity) {
            self.desiredAccuracy = desiredAccuracy
            self.distanceFilter = distanceFilter
            self.maximumSpeed = maximumSpeed
            self.relocationCount = relocationCount
            self.maximumClockLead = maximumClockLead
            self.maximumAge = maximumAge
        }

        /// Throws naming the first setting out of range.
        public func validate() throws(LocationSettingError) {
            try LocationSettingError.check("desiredAccuracy", desiredAccuracy, allowed: "metres > 0 (infinity: keep all)") { $0 > 0 }
            try LocationSettingError.check("distanceFilter", distanceFilter, allowed: "finite metres ≥ 0") { $0.isFinite && $0 >= 0 }
            try LocationSettingError.check("maximumSpeed", maximumSpeed, allowed: "m/s > 0") { $0 > 0 }
            try LocationSettingError.check("relocationCount", Double(relocationCount), allowed: "an integer ≥ 1") { $0 >= 1 }
            try LocationSettingError.check("maximumClockLead", maximumClockLead, allowed: "seconds ≥ 0") { $0 >= 0 }
            try LocationSettingError.check("maximumAge", maximumAge, allowed: "seconds > 0 (infinity: no limit)") { $0 > 0 }
        }
    }
}
