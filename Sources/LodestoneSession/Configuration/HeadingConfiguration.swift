import LodestoneCore
import LodestoneGeomagnetism
import LodestoneIIO

/// The one typed configuration of a heading session, for `lodestone` and
/// `lodestone-serve` alike: where samples come from, how headings are made,
/// and where the board is.
///
/// Command-line flags (``HeadingFlags``) and the JSON config file
/// (``applying(json:)``) both map onto it; ``validate()`` checks the whole.
public struct HeadingConfiguration: Hashable, Sendable {
    public var source: SourceConfiguration
    public var session: HeadingSession.Settings

    public init(source: SourceConfiguration = .iio(IIOSourceConfiguration()), session: HeadingSession.Settings = .init()) {
        self.source = source
        self.session = session
    }

    /// The position setting, for short.
    public var position: PositionSetting {
        get { session.trueNorth.position }
        set { session.trueNorth.position = newValue }
    }

    /// Checks values that depend on each other and ranges, naming the config key.
    public func validate() throws(ConfigurationError) {
        try validateSource()
        let s = session
        guard s.headingFilter.isFinite, s.headingFilter >= 0 else {
            throw ConfigurationError(key: "headingFilter", "must be a number of degrees ≥ 0, not \(s.headingFilter)")
        }
        if case .fixed(let lat, let lon, let h) = s.trueNorth.position {
            guard lat.isFinite, (-90...90).contains(lat) else { throw ConfigurationError(key: "position.lat", "must be between -90 and 90 degrees, not \(lat)") }
            guard lon.isFinite, (-180...360).contains(lon) else { throw ConfigurationError(key: "position.lon", "must be between -180 and 360 degrees, not \(lon)") }
            guard h.isFinite, Self.heights.contains(h) else { throw ConfigurationError(key: "position.altM", "must be between -10000 and 10000000 metres, not \(h)") }
        }
        if case .replay(let r) = s.trueNorth.position {
            guard !r.path.isEmpty else { throw ConfigurationError(key: "position.log", "must name an NMEA log or a GPX file") }
            if let speed = r.speed, !(speed.isFinite && speed > 0) {
                throw ConfigurationError(key: "position.logSpeed", "must be a number > 0, or \"max\" for every fix at once")
            }
        }
        guard s.trueNorth.maxFixAge.isFinite, s.trueNorth.maxFixAge > 0 else {
            throw ConfigurationError(key: "position.maxFixAge", "must be a number of seconds > 0, not \(s.trueNorth.maxFixAge)")
        }
        let model = s.trueNorth.model.model
        if let t = s.trueNorth.modelDate, !s.trueNorth.allowExtrapolation, !model.validity.contains(DecimalYear.from(unixTime: t)) {
            throw ConfigurationError(key: "date", "\(WallClockTime.iso8601(unixSeconds: t, fractionDigits: 0)) is outside \(model.name)'s validity \(model.validity.lowerBound)–\(model.validity.upperBound); allow extrapolation to accept a degraded result")
        }
    }

    private func validateSource() throws(ConfigurationError) {
        switch source {
        case .iio(let s):
            guard s.rate.isFinite, SourceConfiguration.rates.contains(s.rate) else {
                throw ConfigurationError(key: "source.rate", "must be between \(Self.text(SourceConfiguration.rates.lowerBound)) and \(Self.text(SourceConfiguration.rates.upperBound)) Hz, not \(s.rate)")
            }
            guard !s.uri.isEmpty else { throw ConfigurationError(key: "source.uri", "must not be empty (e.g. local: or ip:192.168.1.20)") }
        case .replay(let r):
            guard !r.path.isEmpty else { throw ConfigurationError(key: "source.path", "must name a log file") }
            if let speed = r.speed, !(speed.isFinite && speed > 0) {
                throw ConfigurationError(key: "source.speed", "must be a number > 0, or \"max\" for as fast as possible")
            }
        case .simulated(let s):
            guard s.rate.isFinite, SourceConfiguration.simulatedRates.contains(s.rate) else {
                throw ConfigurationError(key: "source.rate", "must be between \(Self.text(SourceConfiguration.simulatedRates.lowerBound)) and \(Self.text(SourceConfiguration.simulatedRates.upperBound)) Hz for a simulated board, not \(s.rate)")
            }
        }
    }

    /// Heights above the ellipsoid a fixed position may have, metres.
    public static let heights: ClosedRange<Double> = -10_000...1e7

    static func text(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

extension HeadingSession.Settings {
    /// Refuses settings that would have no effect on this source: no smoothing where
    /// gyro fusion (which does not smooth) will run.
    public func check(hasGyroscope: Bool?) throws(SessionError) {
        guard estimator.smoothing == nil, estimator.fusion != .ecompass, hasGyroscope == true else { return }
        throw SessionError(.usage, "--no-smoothing (smoothing: false) changes only the compass mode, and this source has a gyroscope, so gyro fusion runs; add --fusion ecompass (fusion: \"ecompass\") to use the compass without smoothing")
    }
}
