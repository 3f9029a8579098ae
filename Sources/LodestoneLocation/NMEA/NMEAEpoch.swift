/// What the sentences of one fix (one time of day) reported, before it becomes a ``Location``.
struct NMEAEpoch {
    /// Seconds of the UTC day.
    var timeOfDay: Double
    var firstLine: Int
    var firstText: Substring
    var days: Int64?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var course: Double?
    var hdop: Double?
    var vdop: Double?
    var sigmaLatitude: Double?
    var sigmaLongitude: Double?
    var sigmaAltitude: Double?
    /// A sentence said there is no fix (RMC status V, GGA quality 0, GSA mode 1, mode N).
    var noFix = false
    /// A sentence said there is a fix.
    var hasFix = false

    init(timeOfDay: Double, line: Int, text: Substring) {
        self.timeOfDay = timeOfDay
        firstLine = line
        firstText = text
    }

    /// The fix, given the day; nil without a position or when a sentence said "no fix".
    func location(days: Int64, userRangeError: Double) -> Location? {
        guard hasFix, !noFix, let latitude, let longitude else { return nil }
        var horizontal = hdop.map { $0 * userRangeError }
        if let a = sigmaLatitude, let b = sigmaLongitude { horizontal = (a * a + b * b).squareRoot() }
        return Location(latitude: latitude, longitude: longitude, altitude: altitude,
                        ellipsoidalAltitude: altitude.flatMap { a in geoidSeparation.map { a + $0 } },
                        horizontalAccuracy: horizontal, verticalAccuracy: sigmaAltitude ?? vdop.map { $0 * userRangeError },
                        speed: speed, course: course, timestamp: Double(days) * 86_400 + timeOfDay)
    }
}
