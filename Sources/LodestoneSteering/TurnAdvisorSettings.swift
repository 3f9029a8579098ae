extension TurnAdvisor {
    /// How eagerly the advisor changes its mind. Every threshold has a
    /// hysteresis margin so that sensor noise at an edge never makes the
    /// instruction flap.
    public struct Settings: Sendable, Equatable {
        /// Half-width of the `ahead` band, degrees, in [0, 67.5). Default 10°.
        public var aheadTolerance: Double
        /// Degrees a delta must pass a band edge before the instruction changes,
        /// in [0, 22.5). Default 3°: a few times the jitter of a calibrated,
        /// smoothed compass, and well under the narrowest (45°) band.
        public var turnHysteresis: Double
        /// Distance, metres, at or below which the target counts as reached. Default 10 m.
        public var arrivalRadius: Double
        /// Extra metres beyond `arrivalRadius` before "arrived" is withdrawn. Default 5 m:
        /// GNSS noise is a few metres whatever the radius, so the margin is in metres,
        /// not a fraction of the radius.
        public var arrivalHysteresis: Double
        /// Ground speed, m/s, at or below which no ETA is given. Default 0.5 m/s: a
        /// receiver standing still commonly reports a few tenths of m/s, which
        /// would give an ETA of hours.
        public var minimumSpeedForETA: Double

        public init(aheadTolerance: Double = 10, turnHysteresis: Double = 3,
                    arrivalRadius: Double = 10, arrivalHysteresis: Double = 5,
                    minimumSpeedForETA: Double = 0.5) {
            self.aheadTolerance = aheadTolerance
            self.turnHysteresis = turnHysteresis
            self.arrivalRadius = arrivalRadius
            self.arrivalHysteresis = arrivalHysteresis
            self.minimumSpeedForETA = minimumSpeedForETA
        }

        /// Throws naming the first setting out of range.
        public func validate() throws(SteeringInputError) {
            try Self.check("aheadTolerance", aheadTolerance, allowed: "0 ≤ degrees < 67.5") { $0 >= 0 && $0 < TurnInstruction.slightLimit }
            try Self.check("turnHysteresis", turnHysteresis, allowed: "0 ≤ degrees < 22.5") { $0 >= 0 && $0 < 22.5 }
            try Self.check("arrivalRadius", arrivalRadius, allowed: "finite metres ≥ 0") { $0 >= 0 }
            try Self.check("arrivalHysteresis", arrivalHysteresis, allowed: "finite metres ≥ 0") { $0 >= 0 }
            try Self.check("minimumSpeedForETA", minimumSpeedForETA, allowed: "finite m/s ≥ 0") { $0 >= 0 }
        }

        private static func check(_ name: String, _ value: Double, allowed: String,
                                  _ isValid: (Double) -> Bool) throws(SteeringInputError) {
            guard value.isFinite, isValid(value) else {
                throw .settingOutOfRange(name: name, value: value, allowed: allowed)
            }
        }
    }
}
