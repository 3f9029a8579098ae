import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism

/// Where and when the board is, for true heading: shared by `replay`, `watch` and `serve`.
struct PositionOptions {
    static let options: [CommandLineOption] = [
        .value("lat", "DEG", "Latitude, degrees north (with --lon: fills trueHeading and declination)."),
        .value("lon", "DEG", "Longitude, degrees east."),
        .value("alt-m", "M", "Height above the WGS 84 ellipsoid in metres (default 0)."),
        .value("date", "YYYY-MM-DD", "Model date (default: the log's start time, else today)."),
        .value("year", "DECIMAL", "Model date as a decimal year, e.g. 2026.5."),
        .value("model", "NAME", "Geomagnetic model: wmm (WMM2025, default) or wmmhr (WMMHR2025)."),
        .flag("allow-extrapolation", "Accept a date or height outside the model's validity (marked degraded)."),
    ]

    var latitude: Double?
    var longitude: Double?
    var height = 0.0
    /// Unix time fixed by --date or --year.
    var fixedTime: Double?
    var model = GeomagneticModel.wmm2025
    var allowExtrapolation = false

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        latitude = try arguments.double("lat", in: -90...90)
        longitude = try arguments.double("lon", in: -180...360)
        guard (latitude == nil) == (longitude == nil) else {
            throw UsageError("--lat and --lon go together")
        }
        height = try arguments.double("alt-m", in: -10_000...1e7) ?? 0
        fixedTime = try Self.date(arguments)
        model = try Self.model(arguments.string("model"))
        allowExtrapolation = arguments.flag("allow-extrapolation")
        if let t = fixedTime, !allowExtrapolation, !model.validity.contains(DecimalYear.from(unixTime: t)) {
            throw UsageError("the date \(WallClockTime.iso8601(unixSeconds: t, fractionDigits: 0)) is outside \(model.name)'s validity \(model.validity.lowerBound)–\(model.validity.upperBound); add --allow-extrapolation to accept a degraded result")
        }
    }

    var hasPosition: Bool { latitude != nil }

    static func model(_ name: String?) throws(UsageError) -> GeomagneticModel {
        switch name ?? "wmm" {
        case "wmm", "wmm2025": return .wmm2025
        case "wmmhr", "wmmhr2025": return .wmmhr2025
        case let other: throw UsageError("--model must be wmm or wmmhr, got '\(other)'")
        }
    }

    /// Unix time from --date or --year, if given.
    static func date(_ arguments: CommandLineArguments) throws(UsageError) -> Double? {
        let date = arguments.string("date"), year = try arguments.double("year", in: 1900...2200)
        guard date == nil || year == nil else { throw UsageError("give --date or --year, not both") }
        if let year { return DecimalYear.unixTime(fromDecimalYear: year) }
        guard let date else { return nil }
        guard date.count == 10, let t = WallClockTime.parse(date) else {
            throw UsageError("--date must be YYYY-MM-DD, got '\(date)'")
        }
        return t
    }
}

/// Keeps the pipeline's declination current as log time advances, and turns
/// model warnings (blackout, caution, extrapolation) into stream events.
struct TrueNorth {
    let options: PositionOptions
    /// Unix time of log time 0 when the date follows the log.
    let clockStart: Double
    private var cache: DeclinationCache
    private var lastZone: MagneticPoleZone?
    private var reportedExtrapolation = false

    /// Nil when no position was given.
    init?(_ options: PositionOptions, logStart: Double?, now: Double) {
        guard options.hasPosition else { return nil }
        self.options = options
        clockStart = logStart ?? now
        cache = DeclinationCache(model: options.model, allowExtrapolation: options.allowExtrapolation)
    }

    /// An event for the stream: name, short reason code, and a sentence.
    struct Event {
        let name: String
        let reason: String
        let detail: String
    }

    /// Updates `pipeline.declination` and its expected field for a sample at
    /// `time` (log seconds); returns events to print.
    mutating func update(_ pipeline: inout HeadingPipeline, time: Double) throws -> [Event] {
        guard let lat = options.latitude, let lon = options.longitude else { return [] }
        let unixTime = options.fixedTime ?? (clockStart + time)
        let before = cache.evaluations
        do {
            pipeline.declination = try cache.declination(latitude: lat, longitude: lon, height: options.height, unixTime: unixTime)
        } catch {
            throw CommandFailure(.badInput, "\(error) (the date comes from \(options.fixedTime == nil ? "the log's start time or today" : "--date/--year"))")
        }
        guard cache.evaluations != before, let e = cache.elements else { return [] }
        pipeline.setExpectedField(ExpectedField(strength: e.totalIntensity / 1000, dip: e.inclination))
        var events: [Event] = []
        if e.isExtrapolated, !reportedExtrapolation {
            reportedExtrapolation = true
            events.append(Event(name: "modelExtrapolated", reason: "outsideValidity",
                                detail: "\(options.model.name) is used outside its validity (date \(e.decimalYear), height \(options.height) m): declination is degraded"))
        }
        if e.zone != lastZone {
            let h = Int(e.horizontalIntensity.rounded())
            switch e.zone {
            case .blackout:
                events.append(Event(name: "trueHeadingUnavailable", reason: "blackoutZone",
                                    detail: "near the magnetic pole H = \(h) nT < 2000 nT: the compass is unreliable and trueHeading is null"))
            case .caution:
                events.append(Event(name: "trueHeadingDegraded", reason: "cautionZone",
                                    detail: "near the magnetic pole H = \(h) nT < 6000 nT; declination uncertainty \(e.declinationUncertainty)°"))
            case .normal where lastZone != nil:
                events.append(Event(name: "trueHeadingAvailable", reason: "normalZone", detail: "left the magnetic pole zone: H = \(h) nT"))
            case .normal:
                break
            }
            lastZone = e.zone
        }
        return events
    }
}
