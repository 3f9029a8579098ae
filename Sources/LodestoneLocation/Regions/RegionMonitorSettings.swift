extension RegionMonitor {
    public struct Settings: Sendable, Equatable {
        /// At most this many regions at once. Default 20, Core Location's limit per app:
        /// each fix is checked against every region.
        public var maximumRegions: Int
        /// The smallest hysteresis margin, metres, used when a fix reports a better (or no)
        /// accuracy. Default 10 m: a few times the jitter of a GNSS fix under open sky,
        /// which receivers often under-report.
        public var minimumMargin: Double
        /// The largest radius accepted, metres. Default 1000 km.
        public var maximumRadius: Double

        public init(maximumRegions: Int = 20, minimumMargin: Double = 10, maximumRadius: Double = 1_000_000) {
            self.maximumRegions = maximumRegions
            self.minimumMargin = minimumMargin
            self.maximumRadius = maximumRadius
        }

        public func validate() throws(LocationSettingError) {
            try LocationSettingError.check("maximumRegions", Double(maximumRegions), allowed: "an integer ≥ 1") { $0 >= 1 }
            try LocationSettingError.check("minimumMargin", minimumMargin, allowed: "finite metres ≥ 0") { $0.isFinite && $0 >= 0 }
            try LocationSettingError.check("maximumRadius", maximumRadius, allowed: "finite metres > 0") { $0.isFinite && $0 > 0 }
        }
    }
}
