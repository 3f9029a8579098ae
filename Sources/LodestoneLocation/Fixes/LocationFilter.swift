/// The gate between a position source and its clients, with the semantics of
/// `CLLocationManager`'s `desiredAccuracy` and `distanceFilter`, plus the
/// checks a receiver's output needs before anyone trusts it.
///
/// For each fix, in order:
/// 1. Validate: a position that is not a number or out of range, or a time that
///    is not finite, refuses the fix; a bad optional value is only dropped.
/// 2. Time: refuse fixes from the future or older than `maximumAge` (given a
///    `now`), and fixes not later than the last accepted one.
/// 3. Accuracy: refuse fixes worse than `desiredAccuracy`.
/// 4. Plausibility: refuse a fix that could be reached from the last accepted
///    one only faster than `maximumSpeed`, after allowing both fixes their
///    horizontal accuracy. If `relocationCount` such fixes in a row agree with
///    one another, the reference was the outlier: follow them (`relocated`).
/// 5. Distance filter: deliver the fix when it is at least `distanceFilter`
///    metres from the last delivered one (the first always).
///
/// A refused fix changes nothing, so a burst of garbage cannot poison the
/// state. A value type: copy it to fork the state, `reset()` to start over.
public struct LocationFilter: Sendable {
    public let settings: Settings
    /// The last fix that passed steps 1–4: the reference for the jump check.
    public private(set) var lastAccepted: Location?
    /// The last fix delivered: the reference for the distance filter.
    public private(set) var lastDelivered: Location?
    /// Consecutive fixes refused as jumps, each plausible from the one before.
    private var jumpCandidates: [Location] = []

    public init(settings: Settings = Settings()) throws(LocationSettingError) {
        try settings.validate()
        self.settings = settings
    }

    /// Runs one fix through the filter. `now` is the wall clock (Unix seconds) for
    /// the future and age checks; nil skips them (replay, or an untrusted clock).
    public mutating func process(_ fix: Location, now: Double? = nil) -> [LocationEvent] {
        let location: Location
        var events: [LocationEvent] = []
        do throws(LocationRejection) {
            let (clean, discarded) = try fix.sanitized()
            events = discarded.map { .discardedValue($0, Self.value(of: $0, in: fix)) }
            try checkTime(clean, now: now)
            try checkAccuracy(clean)
            location = clean
        } catch {
            return events + [.rejected(error)]
        }
        switch checkPlausibility(location) {
        case .failure(let rejection):
            return events + [.rejected(rejection)]
        case .success(let relocation):
            if let relocation { events.append(relocation) }
        }
        events.append(applyDistanceFilter(location))
        return events
    }

    /// Forgets every fix, as for a new client or a restarted source.
    public mutating func reset() {
        lastAccepted = nil
        lastDelivered = nil
        jumpCandidates = []
    }

    private func checkTime(_ fix: Location, now: Double?) throws(LocationRejection) {
        if let now, now.isFinite {
            if fix.timestamp > now + settings.maximumClockLead { throw .fromTheFuture(timestamp: fix.timestamp, now: now) }
            if now - fix.timestamp > settings.maximumAge { throw .stale(timestamp: fix.timestamp, now: now) }
        }
        let latest = max(lastAccepted?.timestamp ?? -.infinity, jumpCandidates.last?.timestamp ?? -.infinity)
        if fix.timestamp <= latest { throw .outOfOrder(timestamp: fix.timestamp, previous: latest) }
    }

    private func checkAccuracy(_ fix: Location) throws(LocationRejection) {
        guard settings.desiredAccuracy.isFinite else { return }
        guard let accuracy = fix.horizontalAccuracy, accuracy <= settings.desiredAccuracy else {
            throw .insufficientAccuracy(horizontalAccuracy: fix.horizontalAccuracy, desired: settings.desiredAccuracy)
        }
    }

    /// Accepts the fix as the new reference, or refuses it as a jump; a run of
    /// mutually consistent jumps relocates the reference.
    private mutating func checkPlausibility(_ fix: Location) -> Result<LocationEvent?, LocationRejection> {
        guard let reference = lastAccepted, let jump = implausibleJump(from: reference, to: fix) else {
            lastAccepted = fix
            jumpCandidates = []
            return .success(nil)
        }
        if let last = jumpCandidates.last, implausibleJump(from: last, to: fix) == nil {
            jumpCandidates.append(fix)
        } else {
            jumpCandidates = [fix]
        }
        guard jumpCandidates.count >= settings.relocationCount, let previous = reference.coordinate else {
            return .failure(jump)
        }
        lastAccepted = fix
        jumpCandidates = []
        return .success(.relocated(previous: previous, distance: reference.distance(to: fix) ?? 0))
    }

    /// The rejection for reaching `fix` from `reference`, or nil when it is plausible.
    private func implausibleJump(from reference: Location, to fix: Location) -> LocationRejection? {
        guard let distance = reference.distance(to: fix) else { return nil }
        let interval = fix.timestamp - reference.timestamp
        let allowance = (reference.horizontalAccuracy ?? 0) + (fix.horizontalAccuracy ?? 0)
        let needed = max(0, distance - allowance)
        guard needed > settings.maximumSpeed * interval else { return nil }
        return .implausibleJump(distance: distance, interval: interval,
                                speed: interval > 0 ? distance / interval : .infinity, limit: settings.maximumSpeed)
    }

    private mutating func applyDistanceFilter(_ fix: Location) -> LocationEvent {
        if let last = lastDelivered, settings.distanceFilter > 0 {
            let distance = last.distance(to: fix) ?? 0
            if distance < settings.distanceFilter { return .withheldByDistanceFilter(distance: distance) }
        }
        lastDelivered = fix
        return .delivered(fix)
    }

    private static func value(of field: LocationField, in fix: Location) -> Double {
        let value: Double?
        switch field {
        case .altitude: value = fix.altitude
        case .ellipsoidalAltitude: value = fix.ellipsoidalAltitude
        case .horizontalAccuracy: value = fix.horizontalAccuracy
        case .verticalAccuracy: value = fix.verticalAccuracy
        case .speed: value = fix.speed
        case .speedAccuracy: value = fix.speedAccuracy
        case .course: value = fix.course
        case .courseAccuracy: value = fix.courseAccuracy
        }
        return value ?? .nan
    }
}
