import LodestoneCore
import LodestoneGeomagnetism

/// An event for protocol clients: `{"class":"EVENT","event":…,"reason":…,"detail":…}`,
/// as in the NDJSON of `lodestone replay`: `reason` is a short code a program
/// can test, `detail` a sentence for people.
public struct ServiceEvent: Equatable, Sendable {
    public var name: String
    public var reason: String
    public var detail: String
    /// `start`/`end` for events that last (a magnetic disturbance).
    public var state: String?

    public init(_ name: String, reason: String, _ detail: String, state: String? = nil) {
        self.name = name
        self.reason = reason
        self.detail = detail
        self.state = state
    }
}

/// Whether true heading can be given now, and with which declination.
///
/// Inputs are the configured position, fixes from gpsd with the monotonic
/// time they arrived, and the time; outputs are the declination to use (nil:
/// `trueHeading` is null) and the position for steering. The state is
/// summarised as one ``ServiceEvent`` (`trueHeadingAvailable`,
/// `trueHeadingDegraded` or `trueHeadingUnavailable` with the reason); a new
/// event is reported only when the state or the kind of reason changes, not
/// when a number in the reason does. Pure: no clock, no I/O.
public struct TrueNorthTracker: Sendable {
    public struct Position: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var height: Double
        public var speed: Double?
        public var course: Double?
    }

    public let configuration: ServiceConfiguration.Position
    public let maxFixAge: Double
    public let fixedDate: Double?
    private var cache: DeclinationCache
    private var lastFix: (fix: GPSDReport.Fix, receivedAt: Double)?
    /// How the gpsd link is, for reasons: nil when connected.
    private var gpsdProblem: String? = "not connected yet"

    /// The declination to use; nil keeps `trueHeading` null.
    public private(set) var declination: Declination?
    /// The field the model expects at the position (for calibration checks); nil without a position.
    public private(set) var expectedField: ExpectedField?
    /// The usable position (fixed, or a fresh fix); nil when there is none.
    public private(set) var position: Position?
    /// The current state, as the event a new watcher is told.
    public private(set) var status: ServiceEvent
    private var statusKey = ""
    private var reportedExtrapolation = false

    public init(configuration: ServiceConfiguration.Position, maxFixAge: Double, model: GeomagneticModel,
                allowExtrapolation: Bool, fixedDate: Double?) {
        self.configuration = configuration
        self.maxFixAge = maxFixAge
        self.fixedDate = fixedDate
        cache = DeclinationCache(model: model, allowExtrapolation: allowExtrapolation)
        status = ServiceEvent("trueHeadingUnavailable", reason: "noPosition", Self.noPosition)
        statusKey = "noPosition"
    }

    /// Records a fix from gpsd received at monotonic time `now`.
    public mutating func fixReceived(_ fix: GPSDReport.Fix, at now: Double) {
        lastFix = (fix, now)
    }

    /// Records the state of the gpsd connection: nil when connected, else what is wrong.
    public mutating func gpsdLinkChanged(problem: String?) {
        gpsdProblem = problem
    }

    /// Re-evaluates at monotonic time `now` and Unix time `unixTime`; returns the events to broadcast.
    public mutating func update(now: Double, unixTime: Double) -> [ServiceEvent] {
        var events: [ServiceEvent] = []
        let candidate: Position?
        var unavailable: (key: String, detail: String)?
        switch configuration {
        case .none:
            candidate = nil
            unavailable = ("noPosition", Self.noPosition)
        case let .fixed(lat, lon, h):
            candidate = Position(latitude: lat, longitude: lon, height: h, speed: nil, course: nil)
        case .gpsd(let endpoint):
            if let (fix, at) = lastFix {
                let age = now - at
                if age <= maxFixAge {
                    candidate = Position(latitude: fix.latitude, longitude: fix.longitude, height: fix.height,
                                         speed: fix.speed, course: fix.course)
                } else {
                    candidate = nil
                    let link = gpsdProblem.map { "; gpsd at \(endpoint): \($0)" } ?? ""
                    unavailable = ("fixTooOld", "the last fix from gpsd is \(Self.seconds(age)) s old (maximum \(Self.seconds(maxFixAge)) s)\(link)")
                }
            } else {
                candidate = nil
                if let problem = gpsdProblem {
                    unavailable = ("gpsdUnreachable", "no fix yet: gpsd at \(endpoint): \(problem)")
                } else {
                    unavailable = ("noFix", "no fix yet from gpsd at \(endpoint)")
                }
            }
        }
        position = candidate
        declination = nil
        expectedField = nil
        if let p = candidate {
            let time = fixedDate ?? unixTime
            do {
                let d = try cache.declination(latitude: p.latitude, longitude: p.longitude, height: p.height, unixTime: time)
                if let e = cache.elements, e.isExtrapolated, !reportedExtrapolation {
                    reportedExtrapolation = true
                    events.append(ServiceEvent("modelExtrapolated", reason: "outsideValidity", "\(cache.model.name) is used outside its validity (year \(Self.seconds(e.decimalYear)), height \(Self.seconds(p.height)) m): declination is degraded"))
                }
                if let e = cache.elements { expectedField = ExpectedField(strength: e.totalIntensity / 1000, dip: e.inclination) }
                let h = Int((cache.elements?.horizontalIntensity ?? 0).rounded())
                switch cache.elements?.zone ?? .normal {
                case .blackout:
                    unavailable = ("blackoutZone", "blackout zone near the magnetic pole: H = \(h) nT < 2000 nT; the compass is unreliable")
                case .caution:
                    declination = d
                    setStatus(ServiceEvent("trueHeadingDegraded", reason: "cautionZone", "caution zone near the magnetic pole: H = \(h) nT < 6000 nT; declination uncertainty \(Self.seconds(d.uncertainty))°"), key: "cautionZone", into: &events)
                case .normal:
                    declination = d
                    let source: String
                    if case .gpsd(let e) = configuration { source = "gpsd at \(e)" } else { source = "the configured position" }
                    setStatus(ServiceEvent("trueHeadingAvailable", reason: "positionKnown", "position from \(source): declination \(Self.seconds(d.degrees))° from \(cache.model.name)"), key: "positionKnown", into: &events)
                }
            } catch {
                unavailable = ("modelUnusable", "the magnetic model cannot be used: \(error)")
            }
        }
        if let u = unavailable {
            declination = nil
            setStatus(ServiceEvent("trueHeadingUnavailable", reason: u.key, u.detail), key: u.key, into: &events)
        }
        return events
    }

    private mutating func setStatus(_ event: ServiceEvent, key: String, into events: inout [ServiceEvent]) {
        status = event
        guard key != statusKey else { return }
        statusKey = key
        events.append(event)
    }

    static let noPosition = "no position configured: give --lat/--lon or --gpsd for true heading"

    /// A number with at most one decimal, for messages.
    static func seconds(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
