#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs
import LodestoneCommandLine

/// Reads the JSON config file of `lodestone serve` (documented in the README,
/// example in `tools/lodestone.example.json`).
///
/// Every key is optional; unknown keys are errors (a typo must not be ignored
/// silently), and each error names the key. Relative paths are taken from
/// the config file's directory.
extension ServiceConfiguration {
    /// Reads and applies a config file on top of `self`.
    public func applying(file path: String) throws(ConfigurationError) -> ServiceConfiguration {
        let text: String
        do {
            text = try FileText.read(path, limit: 1 << 20)
        } catch {
            throw ConfigurationError(key: "(file)", "cannot be read: \(error)", origin: path)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw ConfigurationError(key: "(file)", "not valid JSON: \(error)", origin: path)
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        do {
            return try applying(json: json, baseDirectory: directory)
        } catch var error {
            error.origin = path
            throw error
        }
    }

    /// Applies a parsed config object on top of `self`.
    public func applying(json: JSONValue, baseDirectory: String = ".") throws(ConfigurationError) -> ServiceConfiguration {
        var c = self
        let root = try Keys(json, path: "", known: ["source", "forward", "smoothing", "fusion", "calibration", "autoCalibrate", "headingFilter", "position",
                                                     "model", "allowExtrapolation", "socket", "socketMode", "listen", "nmea", "limits"])
        func resolve(_ p: String) -> String { p.hasPrefix("/") ? p : baseDirectory + "/" + p }

        if let source = root["source"] {
            let s = try Keys(source, path: "source", known: ["type", "uri", "magn", "accel", "gyro", "mode", "rate", "boardRotation",
                                                             "path", "loop", "speed"])
            let type = try s.string("type") ?? c.source.kind
            let iioKeys = ["uri", "magn", "accel", "gyro", "mode", "boardRotation"], replayKeys = ["path", "loop", "speed"]
            switch type {
            case "iio":
                try s.refuse(replayKeys, because: "they belong to a replay source")
                var iio = IIO()
                if case .iio(let old) = c.source { iio = old }
                if let v = try s.string("uri") { iio.uri = v }
                if let v = try s.optionalString("magn") { iio.magnetometer = v }
                if let v = try s.optionalString("accel") { iio.accelerometer = v }
                if let v = try s.optionalString("gyro") { iio.gyroscope = v }
                if let v = try s.string("mode") { iio.mode = v }
                if let v = try s.number("rate") { iio.rate = v }
                if let v = s["boardRotation"] {
                    switch v {
                    case .number(let n): iio.boardRotation = Self.shortest(n)
                    case .string(let t): iio.boardRotation = t
                    case .null: iio.boardRotation = nil
                    default: throw ConfigurationError(key: "source.boardRotation", "must be degrees about z (a number) or a matrix \"a,b,c; d,e,f; g,h,i\", not \(v.typeName)")
                    }
                }
                c.source = .iio(iio)
            case "replay":
                try s.refuse(iioKeys, because: "they belong to an iio source")
                guard let path = try s.string("path") else {
                    throw ConfigurationError(key: "source.path", "is required for a replay source: the log to replay")
                }
                var replay = Replay(path: resolve(path))
                if let v = try s.bool("loop") { replay.loop = v }
                if let v = s["speed"] {
                    switch v {
                    case .number(let n): replay.speed = n
                    case .string("max"): replay.speed = nil
                    default: throw ConfigurationError(key: "source.speed", "must be a number > 0 or \"max\", not \(v.typeName)")
                    }
                }
                if let v = try s.number("rate") { _ = v; throw ConfigurationError(key: "source.rate", "does not apply to a replay: the log's timestamps set the pace (use speed)") }
                c.source = .replay(replay)
            case "simulated":
                try s.refuse(iioKeys + replayKeys, because: "a simulated source only takes rate")
                var sim = Simulated()
                if let v = try s.number("rate") { sim.rate = v }
                c.source = .simulated(sim)
            default:
                throw ConfigurationError(key: "source.type", "must be iio, replay or simulated, not '\(type)'")
            }
        }
        if let v = try root.string("forward") {
            guard let axis = ForwardAxis(argument: v) else { throw ConfigurationError(key: "forward", "must be +y, +x, -y or -x, not '\(v)'") }
            c.forwardAxis = axis
        }
        if let v = try root.bool("smoothing") { c.smoothing = v }
        if let v = try root.string("fusion") {
            guard let mode = FusionMode(rawValue: v) else { throw ConfigurationError(key: "fusion", "must be auto, ecompass or ahrs, not '\(v)'") }
            c.fusion = mode
        }
        switch root["calibration"] {
        case nil: break
        case .null?: c.calibration = .none
        case .string(let path)?: c.calibration = .files([resolve(path)])
        case .array(let items)?:
            let paths = items.compactMap(\.stringValue)
            guard paths.count == items.count, (1...2).contains(paths.count), paths.allSatisfy({ !$0.isEmpty }) else {
                throw ConfigurationError(key: "calibration", "must be a profile's path, an array of one or two paths (a magnetometer's and an accelerometer's), or null for none")
            }
            c.calibration = .files(paths.map(resolve))
        case let other?:
            throw ConfigurationError(key: "calibration", "must be a string, an array of strings or null, not \(other.typeName)")
        }
        if let v = try root.bool("autoCalibrate") { c.autoCalibrate = v }
        if let v = try root.number("headingFilter") { c.headingFilter = v }
        if let position = root["position"] {
            let p = try Keys(position, path: "position", known: ["lat", "lon", "altM", "gpsd", "maxFixAge"])
            let lat = try p.number("lat"), lon = try p.number("lon")
            if let v = try p.number("maxFixAge") { c.maxFixAge = v }
            if p["gpsd"] != nil, lat != nil || lon != nil {
                throw ConfigurationError(key: "position", "give either lat/lon (a fixed position) or gpsd, not both")
            }
            if let lat, let lon {
                c.position = .fixed(latitude: lat, longitude: lon, height: try p.number("altM") ?? 0)
            } else if lat != nil || lon != nil {
                throw ConfigurationError(key: lat == nil ? "position.lat" : "position.lon", "lat and lon go together")
            } else if let g = p["gpsd"] {
                switch g {
                case .bool(true): c.position = .gpsd(Self.defaultGPSD)
                case .bool(false), .null: c.position = .none
                case .string(let t):
                    switch Endpoint.parse(t, defaultHost: "localhost", defaultPort: 2947) {
                    case .success(let e): c.position = .gpsd(e)
                    case .failure(let e): throw ConfigurationError(key: "position.gpsd", e.message)
                    }
                default: throw ConfigurationError(key: "position.gpsd", "must be \"HOST:PORT\" or true (localhost:2947), not \(g.typeName)")
                }
            } else if p["altM"] != nil {
                throw ConfigurationError(key: "position.altM", "needs lat and lon")
            }
        }
        if let v = try root.string("model") {
            guard let m = Model(rawValue: v) else { throw ConfigurationError(key: "model", "must be wmm or wmmhr, not '\(v)'") }
            c.model = m
        }
        if let v = try root.bool("allowExtrapolation") { c.allowExtrapolation = v }
        if root["socket"] != nil { c.socketPath = try root.optionalString("socket").map(resolve) }
        if let v = try root.string("socketMode") {
            guard let mode = UInt32(v, radix: 8) else { throw ConfigurationError(key: "socketMode", "must be an octal mode such as \"0660\", not '\(v)'") }
            c.socketMode = mode
        }
        if let listen = root["listen"] {
            guard let items = listen.arrayValue else {
                throw ConfigurationError(key: "listen", "must be an array of \"HOST:PORT\" strings, not \(listen.typeName)")
            }
            c.tcpListeners = []
            for (n, item) in items.enumerated() {
                guard let t = item.stringValue else { throw ConfigurationError(key: "listen[\(n)]", "must be a \"HOST:PORT\" string, not \(item.typeName)") }
                switch Endpoint.parse(t, defaultHost: "127.0.0.1", defaultPort: nil) {
                case .success(let e): c.tcpListeners.append(e)
                case .failure(let e): throw ConfigurationError(key: "listen[\(n)]", e.message)
                }
            }
        }
        if let nmea = root["nmea"] {
            let n = try Keys(nmea, path: "nmea", known: ["listen", "serial", "baud", "rate", "talker"])
            if n["listen"] != nil {
                c.nmea.listen = try n.optionalString("listen").map { t throws(ConfigurationError) in
                    switch Endpoint.parse(t, defaultHost: "127.0.0.1", defaultPort: Self.defaultNMEAPort) {
                    case .success(let e): return e
                    case .failure(let e): throw ConfigurationError(key: "nmea.listen", e.message)
                    }
                }
            }
            if n["serial"] != nil { c.nmea.serial = try n.optionalString("serial") }
            if let v = try n.integer("baud") { c.nmea.baud = v }
            if let v = try n.number("rate") { c.nmea.rate = v }
            if let v = try n.string("talker") { c.nmea.talker = v }
        }
        if let limits = root["limits"] {
            let l = try Keys(limits, path: "limits", known: ["maxClients", "maxLineLength", "clientQueueBytes"])
            if let v = try l.integer("maxClients") { c.limits.maxClients = v }
            if let v = try l.integer("maxLineLength") { c.limits.maxLineLength = v }
            if let v = try l.integer("clientQueueBytes") { c.limits.clientQueueBytes = v }
        }
        try c.validate()
        return c
    }

    static func shortest(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }
}

/// The members of one JSON object, checked against the keys it may have.
struct Keys {
    let members: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String, known: [String]) throws(ConfigurationError) {
        guard let o = value.objectValue else {
            throw ConfigurationError(key: path.isEmpty ? "(file)" : path, "must be a JSON object, not \(value.typeName)")
        }
        self.path = path
        members = o
        for key in o.keys.sorted() where !known.contains(key) {
            let hint = ClosestName.closest(to: key, among: known).map { "; did you mean \($0)?" } ?? ""
            throw ConfigurationError(key: name(key), "unknown key\(hint) (known: \(known.joined(separator: ", ")))")
        }
    }

    subscript(key: String) -> JSONValue? { members[key] }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func refuse(_ keys: [String], because reason: String) throws(ConfigurationError) {
        if let k = keys.first(where: { members[$0] != nil }) {
            throw ConfigurationError(key: name(k), "does not apply here: \(reason)")
        }
    }

    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let v = members[key] else { return nil }
        guard let s = v.stringValue else { throw ConfigurationError(key: name(key), "must be a string, not \(v.typeName)") }
        return s
    }

    /// A string, or nil for JSON null (or absence).
    func optionalString(_ key: String) throws(ConfigurationError) -> String? {
        if case .null? = members[key] { return nil }
        return try string(key)
    }

    func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let v = members[key] else { return nil }
        guard let n = v.numberValue else { throw ConfigurationError(key: name(key), "must be a number, not \(v.typeName)") }
        return n
    }

    func integer(_ key: String) throws(ConfigurationError) -> Int? {
        guard let n = try number(key) else { return nil }
        guard n == n.rounded(), abs(n) < 1e15 else { throw ConfigurationError(key: name(key), "must be a whole number, not \(n)") }
        return Int(n)
    }

    func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let v = members[key] else { return nil }
        guard let b = v.boolValue else { throw ConfigurationError(key: name(key), "must be true or false, not \(v.typeName)") }
        return b
    }
}

/// Small whole-file reads (config files, calibration profiles).
enum FileText {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String, limit: Int) throws(Failure) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
            guard data.count <= limit else { throw Failure(description: "larger than \(limit) bytes; is it the right file?") }
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw Failure(description: "not UTF-8 text")
        }
        return text
    }
}
