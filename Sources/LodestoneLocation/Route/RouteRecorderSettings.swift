extension RouteRecorder {
    public struct Settings: Sendable, Equatable {
        /// Accuracy assumed, metres, for fixes that report none (GPX files from other
        /// apps, NMEA without GST or HDOP). Default 5 m: a typical 1σ GNSS error
        /// under open sky.
        public var assumedAccuracy: Double
        /// A step shorter than this many metres never counts as motion, however good
        /// the reported accuracy. Default 1 m: below the noise of any receiver that
        /// reports a sub-metre accuracy it cannot keep.
        public var minimumStep: Double
        /// A counted step at or above this average speed, m/s, adds its time to the
        /// moving time. Default 0.2 m/s: a third of the slowest walk (0.6 m/s), far
        /// above the apparent speed of the rare jitter step after a long standstill.
        public var minimumMovingSpeed: Double

        public init(assumedAccuracy: Double = 5, minimumStep: Double = 1, minimumMovingSpeed: Double = 0.2) {
            self.assumedAccuracy = assumedAccuracy
            self.minimumStep = minimumStep
            self.minimumMovingSpeed = minimumMovingSpeed
        }

        public func validate() throws(LocationSettingError) {
            try LocationSettingError.check("assumedAccuracy", assumedAccuracy, allowed: "finite metres ≥ 0") { $0.isFinite && $0 >= 0 }
            try LocationSettingError.check("minimumStep", minimumStep, allowed: "finite metres ≥ 0") { $0.isFinite && $0 >= 0 }
            try LocationSettingError.check("minimumMovingSpeed", minimumMovingSpeed, allowed: "finite m/s ≥ 0") { $0.isFinite && $0 >= 0 }
        }
    }
}
