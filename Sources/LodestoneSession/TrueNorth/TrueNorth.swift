import LodestoneCore
import LodestoneGeomagnetism
import LodestoneLocation
import LodestonePosition

/// Whether true heading can be given now, and with which declination.
///
/// Inputs are the position setting, the updates of a live position source
/// with the monotonic time they arrived, and the time; outputs are the
/// declination to use (nil: `trueHeading` and `declination` are null, as in
/// the blackout zone near the magnetic poles), the field the model expects,
/// the position for steering, and the ground speed and track for speed aiding.
/// The state is summarised as one ``HeadingEvent`` (`trueHeadingAvailable`,
/// `trueHeadingDegraded` or `trueHeadingUnavailable` with the reason); a new
/// event is reported only when the kind of state changes, not when a number
/// in its detail does. Pure: no clock, no I/O.
public struct TrueNorth: Sendable {
    public struct Settings: Hashable, Sendable {
        public var position: PositionSetting
        /// A live fix older than this (seconds) no longer counts: `trueHeading` turns null.
        public var maxFixAge: Double
        /// Speed and track older than this (seconds) no longer aid the fusion: a vehicle's
        /// speed changes within seconds, so a fix three report periods old (at gpsd's usual
        /// 1 Hz) no longer describes the motion.
        public var maxMotionAge: Double
        public var model: MagneticModelName
        /// Model date as Unix time; nil takes it from the samples' wall clock.
        public var modelDate: Double?
        public var allowExtrapolation: Bool

        public init(position: PositionSetting = .none, maxFixAge: Double = 10, maxMotionAge: Double = 3,
                    model: MagneticModelName = .wmm, modelDate: Double? = nil, allowExtrapolation: Bool = false) {
            self.position = position
            self.maxFixAge = maxFixAge
            self.maxMotionAge = maxMotionAge
            self.model = model
            self.modelDate = modelDate
            self.allowExtrapolation = allowExtrapolation
        }
    }

    public let settings: Settings
    private var cache: DeclinationCache
    private var lastFix: (fix: Location, receivedAt: Double)?
    /// The receiver said it lost its fix (after the last fix).
    private var fixLost = false
    /// How the live source's link is, for reasons: nil when connected.
    private var linkProblem: String? = "not connected yet"

    /// The declination to use; nil keeps `trueHeading` and `declination` null.
    public private(set) var declination: Declination?
    /// The field the model expects at the position (for calibration checks); nil without a position.
    public private(set) var expectedField: ExpectedField?
    /// The usable position (fixed, or a fresh fix); nil when there is none.
    public private(set) var position: Location?
    /// Ground speed (m/s) and track (course over ground, degrees from true north) of a fix younger than
    /// ``Settings/maxMotionAge``; nil when there is none, or the position is fixed.
    public private(set) var motion: (speed: Double?, track: Double?)?
    /// The current state, as the event a new watcher is told.
    public private(set) var status: HeadingEvent
    private var reportedExtrapolation = false

    public init(settings: Settings) {
        self.settings = settings
        cache = DeclinationCache(model: settings.model.model, allowExtrapolation: settings.allowExtrapolation)
        status = HeadingEvent(.trueHeadingUnavailable, .noPosition, Self.noPosition)
    }

    static let noPosition = "no position configured: give --lat/--lon or --gpsd for true heading"

    /// Records an update of the live position source received at monotonic time `now`.
    public mutating func received(_ update: PositionUpdate, at now: Double) {
        switch update {
        case .fix(let fix):
            lastFix = (fix, now)
            fixLost = false
        case .fixLost:
            fixLost = true
        case .link(let problem):
            linkProblem = problem
        case .message:
            break
        }
    }

    /// Re-evaluates at monotonic time `now` and Unix time `unixTime`; returns the events to report.
    public mutating func update(now: Double, unixTime: Double) -> [HeadingEvent] {
        var events: [HeadingEvent] = []
        let (candidate, unavailable) = usablePosition(now: now, unixTime: unixTime)
        position = candidate
        motion = nil
        if let (fix, at) = lastFix, !fixLost, settings.position.isLive, now - at <= settings.maxMotionAge {
            motion = (fix.speed, fix.course)
        }
        declination = nil
        expectedField = nil
        guard let p = candidate else {
            if let u = unavailable { setStatus(HeadingEvent(.trueHeadingUnavailable, u.reason, u.detail), into: &events) }
            return events
        }
        evaluate(at: p, unixTime: settings.modelDate ?? unixTime, into: &events)
        return events
    }

    /// The position to use now, or why there is none.
    private func usablePosition(now: Double, unixTime: Double) -> (Location?, (reason: HeadingEvent.Reason, detail: String)?) {
        let source = settings.position.sourceName
        switch settings.position {
        case .none:
            return (nil, (.noPosition, Self.noPosition))
        case let .fixed(lat, lon, h):
            return (Location(latitude: lat, longitude: lon, ellipsoidalAltitude: h, timestamp: unixTime), nil)
        case .gpsd, .replay, .external:
            let link = linkProblem.map { "; \(source): \($0)" } ?? ""
            guard let (fix, at) = lastFix else {
                if let problem = linkProblem, case .gpsd = settings.position {
                    return (nil, (.gpsdUnreachable, "no fix yet: \(source): \(problem)"))
                }
                return (nil, (.noFix, "no fix yet from \(source)"))
            }
            if fixLost { return (nil, (.noFix, "\(source) reports no fix\(link)")) }
            let age = now - at
            guard age <= settings.maxFixAge else {
                return (nil, (.fixTooOld, "the last fix from \(source) is \(Self.short(age)) s old (maximum \(Self.short(settings.maxFixAge)) s)\(link)"))
            }
            return (fix, nil)
        }
    }

    /// The model at `p`: declination unless in the blackout zone, and the status.
    private mutating func evaluate(at p: Location, unixTime: Double, into events: inout [HeadingEvent]) {
        let d: Declination
        do {
            d = try cache.declination(latitude: p.latitude, longitude: p.longitude, height: Self.modelHeight(p), unixTime: unixTime)
        } catch {
            setStatus(HeadingEvent(.trueHeadingUnavailable, .modelUnusable, "the magnetic model cannot be used: \(error)"), into: &events)
            return
        }
        guard let e = cache.elements else { return }
        if e.isExtrapolated, !reportedExtrapolation {
            reportedExtrapolation = true
            events.append(HeadingEvent(.modelExtrapolated, .outsideValidity, "\(cache.model.name) is used outside its validity (year \(Self.short(e.decimalYear)), height \(Self.short(Self.modelHeight(p))) m): declination is degraded"))
        }
        expectedField = ExpectedField(strength: e.totalIntensity / 1000, dip: e.inclination)
        let h = Int(e.horizontalIntensity.rounded())
        switch e.zone {
        case .blackout:
            setStatus(HeadingEvent(.trueHeadingUnavailable, .blackoutZone, "blackout zone near the magnetic pole: H = \(h) nT < 2000 nT; the compass is unreliable, trueHeading and declination are null"), into: &events)
        case .caution:
            declination = d
            setStatus(HeadingEvent(.trueHeadingDegraded, .cautionZone, "caution zone near the magnetic pole: H = \(h) nT < 6000 nT; declination uncertainty \(Self.short(d.uncertainty))°"), into: &events)
        case .normal:
            declination = d
            setStatus(HeadingEvent(.trueHeadingAvailable, .positionKnown, "position from \(settings.position.sourceName): declination \(Self.short(d.degrees))° from \(cache.model.name)"), into: &events)
        }
    }

    private mutating func setStatus(_ event: HeadingEvent, into events: inout [HeadingEvent]) {
        let changed = event.name != status.name || event.reason != status.reason
        status = event
        if changed { events.append(event) }
    }

    /// The height to give the magnetic model: above the ellipsoid when known, else above
    /// sea level (at most ~100 m off: harmless for declination), else 0.
    static func modelHeight(_ p: Location) -> Double { p.ellipsoidalAltitude ?? p.altitude ?? 0 }

    /// A number with at most one decimal, for messages.
    static func short(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        guard r.isFinite, abs(r) < 1e15 else { return "\(v)" }
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
