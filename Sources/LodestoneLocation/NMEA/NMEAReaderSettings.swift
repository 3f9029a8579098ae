extension NMEAReader {
    public struct Settings: Sendable, Equatable {
        /// Refuse sentences without `*hh`. Default true: without a checksum a
        /// corrupted digit in a coordinate goes unnoticed.
        public var requireChecksum: Bool
        /// The 1σ user-equivalent range error, metres, that turns a DOP into an accuracy
        /// (accuracy = HDOP × this) when the receiver sends no GST. Default 5 m, the usual
        /// figure for single-frequency civil GPS.
        public var userRangeError: Double
        /// The UTC day (Unix seconds of its midnight) for logs whose first epochs carry
        /// only a time of day (GGA without RMC); nil: such epochs are refused until an RMC
        /// gives the date.
        public var startDate: Double?

        public init(requireChecksum: Bool = true, userRangeError: Double = 5, startDate: Double? = nil) {
            self.requireChecksum = requireChecksum
            self.userRangeError = userRangeError
            self.startDate = startDate
        }

        public func validate() throws(LocationSettingError) {
            try LocationSettingError.check("userRangeError", userRangeError, allowed: "finite metres > 0") { $0.isFinite && $0 > 0 }
            if let startDate {
                try LocationSettingError.check("startDate", startDate, allowed: "the Unix time of a UTC midnight") {
                    $0.isFinite && abs($0) < 1e13 && $0.truncatingRemainder(dividingBy: 86_400) == 0
                }
            }
        }
    }
}
