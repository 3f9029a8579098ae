import LodestoneLogs

/// A command from a protocol client, in gpsd's form: `?NAME;` or `?NAME={json};`.
///
/// The trailing `;` is optional (gpsd accepts both); names are upper case.
/// See `PROTOCOL.md`.
public enum ClientCommand: Equatable, Sendable {
    public struct Watch: Equatable, Sendable {
        public var enable: Bool
        /// Degrees; nil keeps the client's current one (or the server default).
        public var headingFilter: Double?
        /// gpsd's keys, from a gpsd client; nil when there were none.
        public var gpsd: GPSDWatchRequest? = nil
        /// The location half's keys (`ClientCommand+Location.swift`).
        public var location = LocationWatch()
    }

    public struct Steer: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Half-width of the "ahead" band, degrees.
        public var tolerance: Double?
        /// Distance at which the target counts as reached, metres.
        public var arrivalRadius: Double?
    }

    case watch(Watch)
    case poll
    /// Nil stops steering.
    case steer(Steer?)
    case devices
    case version
    case region(RegionRequest)
    case track(TrackRequest)

    public static let names = ["WATCH", "POLL", "STEER", "DEVICES", "VERSION", "REGION", "TRACK"]

    /// A malformed or unknown command, with the text sent back in an ERROR object.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
        init(_ message: String) { self.message = message }
    }

    /// Parses one line (without its newline); nil for a blank line, which is ignored.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(Failure) -> ClientCommand? {
        var start = 0, end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 || line[end - 1] == 0x0D { end -= 1 }
        if start == end { return nil }
        guard line[start] == 0x3F else {
            throw Failure("a command starts with '?', e.g. ?WATCH={\"enable\":true};")
        }
        var i = start + 1
        while i < end, (0x41...0x5A).contains(line[i]) { i += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[(start + 1)..<i]), as: UTF8.self)
        if end > i, line[end - 1] == 0x3B { end -= 1 }
        var argument: JSONValue?
        if i < end {
            guard line[i] == 0x3D else {
                let shown = String(decoding: UnsafeBufferPointer(rebasing: line[start..<min(end, start + 40)]), as: UTF8.self)
                throw Failure(name.isEmpty ? "a command name follows '?', e.g. ?POLL;" : "unexpected text after ?\(name) in '\(shown)'; arguments follow '=' as a JSON object")
            }
            do {
                argument = try JSONParser.parse(UnsafeBufferPointer(rebasing: line[(i + 1)..<end]))
            } catch {
                throw Failure("?\(name): the argument is not valid JSON (\(error.message))")
            }
        }
        switch name {
        case "WATCH":
            let o = try object(argument, "WATCH", known: ["enable", "headingFilter"] + LocationWatch.keys + GPSDWatchRequest.keys, required: true)
            let enable = try bool(o, "enable", in: "WATCH") ?? true
            let filter = try number(o, "headingFilter", in: "WATCH")
            if let filter, !(filter >= 0) { throw Failure("?WATCH: headingFilter must be a number of degrees ≥ 0, not \(filter)") }
            return .watch(Watch(enable: enable, headingFilter: filter, gpsd: try GPSDWatchRequest(o), location: try LocationWatch(o)))
        case "POLL":
            try noArgument(argument, "POLL")
            return .poll
        case "DEVICES":
            try noArgument(argument, "DEVICES")
            return .devices
        case "VERSION":
            try noArgument(argument, "VERSION")
            return .version
        case "STEER":
            let o = try object(argument, "STEER", known: ["enable", "lat", "lon", "tolerance", "arrivalRadius"], required: true)
            if try bool(o, "enable", in: "STEER") == false { return .steer(nil) }
            guard let lat = try number(o, "lat", in: "STEER"), let lon = try number(o, "lon", in: "STEER") else {
                throw Failure("?STEER needs lat and lon of the target, e.g. ?STEER={\"lat\":52.5,\"lon\":13.4}; (or {\"enable\":false} to stop)")
            }
            guard (-90...90).contains(lat) else { throw Failure("?STEER: lat must be between -90 and 90 degrees, not \(lat)") }
            guard (-180...360).contains(lon) else { throw Failure("?STEER: lon must be between -180 and 360 degrees, not \(lon)") }
            return .steer(Steer(latitude: lat, longitude: lon, tolerance: try number(o, "tolerance", in: "STEER"),
                                arrivalRadius: try number(o, "arrivalRadius", in: "STEER")))
        case "REGION":
            return .region(try RegionRequest(argument))
        case "TRACK":
            return .track(try TrackRequest(argument))
        case "":
            throw Failure("a command name follows '?', e.g. ?POLL;")
        default:
            throw Failure("unknown command ?\(name); known: " + names.map { "?\($0)" }.joined(separator: " "))
        }
    }

    public static func parse(_ line: String) throws(Failure) -> ClientCommand? {
        var copy = line
        return try copy.withUTF8 { b in Result { () throws(Failure) in try parse(b) } }.get()
    }

    static func noArgument(_ argument: JSONValue?, _ name: String) throws(Failure) {
        guard argument == nil else { throw Failure("?\(name) takes no argument") }
    }

    static func object(_ argument: JSONValue?, _ name: String, known: [String], required: Bool) throws(Failure) -> [String: JSONValue] {
        guard let argument else {
            if required { throw Failure("?\(name) needs a JSON object, e.g. ?\(name)={…};") }
            return [:]
        }
        guard let o = argument.objectValue else { throw Failure("?\(name): the argument must be a JSON object, not \(argument.typeName)") }
        if let unknown = o.keys.sorted().first(where: { !known.contains($0) }) {
            throw Failure("?\(name): unknown key \"\(unknown)\"; known: \(known.joined(separator: ", "))")
        }
        return o
    }

    static func number(_ o: [String: JSONValue], _ key: String, in name: String) throws(Failure) -> Double? {
        guard let v = o[key] else { return nil }
        guard let n = v.numberValue else { throw Failure("?\(name): \(key) must be a number, not \(v.typeName)") }
        return n
    }

    static func bool(_ o: [String: JSONValue], _ key: String, in name: String) throws(Failure) -> Bool? {
        guard let v = o[key] else { return nil }
        guard let b = v.boolValue else { throw Failure("?\(name): \(key) must be true or false, not \(v.typeName)") }
        return b
    }
}
