import LodestoneCalibrationStore
import LodestoneCore
import LodestoneIIO
import LodestoneJSON
import LodestoneNetwork

/// The config file's keys of a heading session (the service's file adds its own;
/// documented in docs/service.md, example in `tools/lodestone.example.json`). Every
/// key is optional; relative paths are taken from the config file's directory.
extension HeadingConfiguration {
    /// The root keys this part of the file takes.
    public static let jsonKeys = ["source", "forward", "smoothing", "fusion", "calibration", "autoCalibrate", "headingFilter",
                                  "position", "model", "date", "allowExtrapolation"]

    /// Applies the heading keys of a parsed config object; `resolve` makes a path absolute.
    public mutating func apply(_ root: ConfigurationKeys, resolve: (String) -> String) throws(ConfigurationError) {
        if let source = root["source"] { try applySource(source, resolve: resolve) }
        if let v = try root.string("forward") {
            guard let axis = ForwardAxis(argument: v) else { throw ConfigurationError(key: "forward", "must be one of \(ForwardAxis.spellings), not '\(v)'") }
            session.estimator.forwardAxis = axis
        }
        if let v = try root.bool("smoothing") { session.estimator.smoothing = v ? AdaptiveSmoother.Settings() : nil }
        if let v = try root.string("fusion") {
            guard let mode = FusionMode(rawValue: v) else { throw ConfigurationError(key: "fusion", "must be auto, ecompass or ahrs, not '\(v)'") }
            session.estimator.fusion = mode
        }
        if let v = root["calibration"] { session.calibration = try Self.calibration(v, resolve: resolve) }
        if let v = try root.bool("autoCalibrate") { session.hardIronTracking = v }
        if let v = try root.number("headingFilter") { session.headingFilter = v }
        if let position = root["position"] { try applyPosition(position, resolve: resolve) }
        if let v = try root.string("model") {
            guard let m = MagneticModelName(rawValue: v) else { throw ConfigurationError(key: "model", "must be wmm or wmmhr, not '\(v)'") }
            session.trueNorth.model = m
        }
        if let v = try root.string("date") {
            guard v.count == 10, let t = WallClockTime.parse(v) else { throw ConfigurationError(key: "date", "must be \"YYYY-MM-DD\", not '\(v)'") }
            session.trueNorth.modelDate = t
        }
        if let v = try root.bool("allowExtrapolation") { session.trueNorth.allowExtrapolation = v }
    }

    private mutating func applySource(_ value: JSONValue, resolve: (String) -> String) throws(ConfigurationError) {
        let s = try ConfigurationKeys(value, path: "source", known: ["type", "uri", "magn", "accel", "gyro", "mode", "rate",
                                                                     "boardRotation", "path", "loop", "speed"])
        let type = try s.string("type") ?? source.kind
        let iioKeys = ["uri", "magn", "accel", "gyro", "mode", "boardRotation"], replayKeys = ["path", "loop", "speed"]
        switch type {
        case "iio":
            try s.refuse(replayKeys, because: "they belong to a replay source")
            var iio = IIOSourceConfiguration()
            if case .iio(let old) = source { iio = old }
            try Self.applyIIO(s, to: &iio)
            source = .iio(iio)
        case "replay":
            try s.refuse(iioKeys, because: "they belong to an iio source")
            guard let path = try s.string("path") else {
                throw ConfigurationError(key: "source.path", "is required for a replay source: the log to replay")
            }
            var replay = ReplaySettings(path: resolve(path))
            if let v = try s.bool("loop") { replay.loop = v }
            if let v = s["speed"] {
                switch v {
                case .number(let n): replay.speed = n
                case .string("max"): replay.speed = nil
                default: throw ConfigurationError(key: "source.speed", "must be a number > 0 or \"max\", not \(v.typeName)")
                }
            }
            if s["rate"] != nil { throw ConfigurationError(key: "source.rate", "does not apply to a replay: the log's timestamps set the pace (use speed)") }
            source = .replay(replay)
        case "simulated":
            try s.refuse(iioKeys + replayKeys, because: "a simulated source only takes rate")
            var sim = SimulatedSettings()
            if let v = try s.number("rate") { sim.rate = v }
            source = .simulated(sim)
        default:
            throw ConfigurationError(key: "source.type", "must be iio, replay or simulated, not '\(type)'")
        }
    }

    private static func applyIIO(_ s: ConfigurationKeys, to iio: inout IIOSourceConfiguration) throws(ConfigurationError) {
        if let v = try s.string("uri") { iio.uri = v }
        if s["magn"] != nil { iio.magnetometerDevice = try s.optionalString("magn") }
        if s["accel"] != nil { iio.accelerometerDevice = try s.optionalString("accel") }
        if s["gyro"] != nil { iio.gyroscopeDevice = try s.optionalString("gyro") }
        if let v = try s.string("mode") {
            guard let mode = IIOCaptureMode(rawValue: v) else { throw ConfigurationError(key: "source.mode", "must be auto, buffered or polled, not '\(v)'") }
            iio.mode = mode
        }
        if let v = try s.number("rate") { iio.rate = v }
        if let v = s["boardRotation"] { iio.boardRotation = try boardRotation(v) }
    }

    private static func boardRotation(_ v: JSONValue) throws(ConfigurationError) -> Matrix3 {
        let text: String
        switch v {
        case .number(let n): text = String(n)
        case .string(let t): text = t
        case .null: return .identity
        default: throw ConfigurationError(key: "source.boardRotation", "must be degrees about z (a number) or a matrix \"a,b,c; d,e,f; g,h,i\", not \(v.typeName)")
        }
        guard let m = BoardRotation.parse(text) else {
            throw ConfigurationError(key: "source.boardRotation", "'\(text)' is not degrees about z nor a rotation matrix \"a,b,c; d,e,f; g,h,i\"")
        }
        return m
    }

    private static func calibration(_ v: JSONValue, resolve: (String) -> String) throws(ConfigurationError) -> CalibrationChoice {
        switch v {
        case .null: return .none
        case .string(let path): return .files([resolve(path)])
        case .array(let items):
            let paths = items.compactMap(\.stringValue)
            guard paths.count == items.count, (1...2).contains(paths.count), paths.allSatisfy({ !$0.isEmpty }) else {
                throw ConfigurationError(key: "calibration", "must be a profile's path, an array of one or two paths (a magnetometer's and an accelerometer's), or null for none")
            }
            return .files(paths.map(resolve))
        default:
            throw ConfigurationError(key: "calibration", "must be a string, an array of strings or null, not \(v.typeName)")
        }
    }

    private mutating func applyPosition(_ value: JSONValue, resolve: (String) -> String) throws(ConfigurationError) {
        let p = try ConfigurationKeys(value, path: "position", known: ["lat", "lon", "altM", "gpsd", "maxFixAge", "log", "logSpeed", "logLoop"])
        let lat = try p.number("lat"), lon = try p.number("lon")
        if let v = try p.number("maxFixAge") { session.trueNorth.maxFixAge = v }
        let given = (lat != nil || lon != nil ? 1 : 0) + (p["gpsd"] != nil ? 1 : 0) + (p["log"] != nil ? 1 : 0)
        if given > 1 {
            throw ConfigurationError(key: "position", "give one of lat/lon (a fixed position), gpsd or log, not more")
        }
        if let path = try p.string("log") {
            var replay = PositionReplay(path: resolve(path))
            if let v = p["logSpeed"] {
                if case .string("max") = v { replay.speed = nil } else if let x = try p.number("logSpeed") { replay.speed = x }
            }
            if let v = try p.bool("logLoop") { replay.loop = v }
            position = .replay(replay)
            return
        }
        try p.refuse(["logSpeed", "logLoop"], because: "they belong to a position log (log)")
        if let lat, let lon {
            position = .fixed(latitude: lat, longitude: lon, height: try p.number("altM") ?? 0)
        } else if lat != nil || lon != nil {
            throw ConfigurationError(key: lat == nil ? "position.lat" : "position.lon", "lat and lon go together")
        } else if let g = p["gpsd"] {
            switch g {
            case .bool(true): position = .gpsd(PositionSetting.defaultGPSD)
            case .bool(false), .null: position = .none
            case .string(let t):
                switch Endpoint.parse(t, defaultHost: "localhost", defaultPort: PositionSetting.defaultGPSD.port) {
                case .success(let e): position = .gpsd(e)
                case .failure(let e): throw ConfigurationError(key: "position.gpsd", e.message)
                }
            default: throw ConfigurationError(key: "position.gpsd", "must be \"HOST:PORT\" or true (localhost:2947), not \(g.typeName)")
            }
        } else if p["altM"] != nil {
            throw ConfigurationError(key: "position.altM", "needs lat and lon")
        }
    }
}
