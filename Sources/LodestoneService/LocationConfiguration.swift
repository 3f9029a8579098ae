import LodestoneLocation
import LodestoneSession

extension ServiceConfiguration {
    /// The location half of the service: where monitored regions are saved, and limits.
    public struct Location: Hashable, Sendable {
        public static let defaultRegionsFile = "regions.json"

        /// The saved regions (relative: to the working directory, /var/lib/lodestone under
        /// systemd); nil keeps them in memory only, lost at a restart.
        public var regionsFile: String? = Location.defaultRegionsFile
        /// Regions monitored at most (each fix is checked against every one).
        public var maxRegions = RegionMonitor.Settings().maximumRegions
        /// The smallest hysteresis margin at a region's edge, metres.
        public var regionMargin = RegionMonitor.Settings().minimumMargin
        /// Fixes in a recorded track at most; recording stops there.
        public var maxTrackPoints = LocationSession.Settings().maximumRoutePoints

        public init() {}

        /// The location session's settings.
        public var session: LocationSession.Settings {
            var s = LocationSession.Settings(maximumRoutePoints: maxTrackPoints)
            s.regions.maximumRegions = maxRegions
            s.regions.minimumMargin = regionMargin
            return s
        }

        func validate() throws(ConfigurationError) {
            if let f = regionsFile, f.isEmpty { throw ConfigurationError(key: "regions.file", "must be a path, or null to keep regions in memory only") }
            guard (1...1000).contains(maxRegions) else { throw ConfigurationError(key: "regions.max", "must be between 1 and 1000, not \(maxRegions)") }
            guard regionMargin.isFinite, (0...10_000).contains(regionMargin) else {
                throw ConfigurationError(key: "regions.minimumMargin", "must be between 0 and 10000 metres, not \(regionMargin)")
            }
            guard (1...10_000_000).contains(maxTrackPoints) else {
                throw ConfigurationError(key: "track.maxPoints", "must be between 1 and 10000000, not \(maxTrackPoints)")
            }
        }
    }

    /// The config file's location keys: `regions` {file, max, minimumMargin} and `track` {maxPoints}.
    static let locationKeys = ["regions", "track"]

    mutating func applyLocation(_ root: ConfigurationKeys, resolve: (String) -> String) throws(ConfigurationError) {
        if let regions = root["regions"] {
            let r = try ConfigurationKeys(regions, path: "regions", known: ["file", "max", "minimumMargin"])
            if r["file"] != nil {
                let file = try r.optionalString("file")
                if file?.isEmpty == true { throw ConfigurationError(key: "regions.file", "must be a path, or null to keep regions in memory only") }
                location.regionsFile = file.map(resolve)
            }
            if let v = try r.integer("max") { location.maxRegions = v }
            if let v = try r.number("minimumMargin") { location.regionMargin = v }
        }
        if let track = root["track"] {
            let t = try ConfigurationKeys(track, path: "track", known: ["maxPoints"])
            if let v = try t.integer("maxPoints") { location.maxTrackPoints = v }
        }
    }
}
