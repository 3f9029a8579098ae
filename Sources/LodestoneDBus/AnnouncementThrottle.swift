/// When a new compass reading is worth a PropertiesChanged signal.
///
/// A heading comes with every sample (up to hundreds a second); GeoClue and desktop
/// clients want a change they can see, not a stream. A reading is announced when it moved
/// at least `headingFilter` degrees (the short way round) from the last one announced,
/// when it became known or unknown, or when its north changed (magnetic ↔ true), and never
/// sooner than `1 / maximumRate` seconds after the previous announcement. Before the first
/// known heading nothing is announced: the property already reads −1.
struct AnnouncementThrottle: Sendable {
    let headingFilter: Double
    let minimumInterval: Double
    private(set) var announced: CompassReading?
    private var lastTime = -Double.infinity

    init(headingFilter: Double, maximumRate: Double) {
        self.headingFilter = max(0, headingFilter)
        minimumInterval = maximumRate > 0 ? 1 / maximumRate : 0
    }

    enum Decision: Equatable {
        case announce
        /// Worth announcing, but not before this time.
        case wait(until: Double)
        case skip
    }

    func decide(_ reading: CompassReading, now: Double) -> Decision {
        guard differs(reading) else { return .skip }
        let earliest = lastTime + minimumInterval
        return now >= earliest ? .announce : .wait(until: earliest)
    }

    mutating func didAnnounce(_ reading: CompassReading, at time: Double) {
        announced = reading
        lastTime = time
    }

    /// Forgets what was announced (a new claim period starts from nothing).
    mutating func reset() {
        announced = nil
        lastTime = -.infinity
    }

    private func differs(_ reading: CompassReading) -> Bool {
        // Clients start from −1 (unknown): the first announcement is the first known heading.
        guard let last = announced else { return reading.degrees != nil }
        guard let new = reading.degrees, let old = last.degrees else { return (reading.degrees == nil) != (last.degrees == nil) }
        if reading.isTrueNorth != last.isTrueNorth { return true }
        var delta = abs(new - old).truncatingRemainder(dividingBy: 360)
        if delta > 180 { delta = 360 - delta }
        return delta >= headingFilter && delta > 0
    }
}
