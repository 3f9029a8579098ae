import LodestoneLogs
import LodestoneSession

extension ClientCommand {
    /// The location keys of `?WATCH` (PROTOCOL.md): nil keeps the client's current value.
    public struct LocationWatch: Equatable, Sendable {
        /// HEADING objects (default true); false leaves the sensors alone for this client.
        public var heading: Bool?
        /// LOCATION objects.
        public var location: Bool?
        /// Metres (≥ 0) between delivered fixes, as `CLLocationManager.distanceFilter`.
        public var distanceFilter: Double?
        /// Metres (> 0): fixes less accurate are not delivered.
        public var desiredAccuracy: Double?
        /// REGION objects (enter, exit, dwell) of the monitored regions.
        public var regions: Bool?
        /// A TRACK object with each fix recorded.
        public var track: Bool?

        static let keys = ["heading", "location", "distanceFilter", "desiredAccuracy", "regions", "track"]

        init(heading: Bool? = nil, location: Bool? = nil, distanceFilter: Double? = nil, desiredAccuracy: Double? = nil,
             regions: Bool? = nil, track: Bool? = nil) {
            self.heading = heading
            self.location = location
            self.distanceFilter = distanceFilter
            self.desiredAccuracy = desiredAccuracy
            self.regions = regions
            self.track = track
        }

        init(_ o: [String: JSONValue]) throws(Failure) {
            heading = try bool(o, "heading", in: "WATCH")
            location = try bool(o, "location", in: "WATCH")
            regions = try bool(o, "regions", in: "WATCH")
            track = try bool(o, "track", in: "WATCH")
            distanceFilter = try number(o, "distanceFilter", in: "WATCH")
            if let d = distanceFilter, !(d.isFinite && d >= 0) {
                throw Failure("?WATCH: distanceFilter must be a number of metres ≥ 0 (0 delivers every fix), not \(d)")
            }
            desiredAccuracy = try number(o, "desiredAccuracy", in: "WATCH")
            if let a = desiredAccuracy, !(a > 0) {
                throw Failure("?WATCH: desiredAccuracy must be a number of metres > 0, not \(a)")
            }
        }
    }

    /// A circular region as `?REGION={"action":"add",…}` gives it.
    public struct RegionSpec: Equatable, Sendable {
        public var identifier: String
        public var latitude: Double
        public var longitude: Double
        public var radius: Double
        public var notifyOnEntry: Bool?
        public var notifyOnExit: Bool?
        public var dwellTime: Double?
    }

    /// `?REGION;` (list), or `?REGION={"action":"add"|"remove"|"state"|"list",…};`.
    public enum RegionRequest: Equatable, Sendable {
        case list
        case add(RegionSpec)
        case remove(identifier: String)
        /// As `requestState(for:)`: the region's state now, or with the fix that decides it.
        case state(identifier: String)

        static let actions = ["add", "remove", "state", "list"]

        init(_ argument: JSONValue?) throws(Failure) {
            guard argument != nil else {
                self = .list
                return
            }
            let o = try object(argument, "REGION", known: ["action", "identifier", "lat", "lon", "radius", "notifyOnEntry",
                                                             "notifyOnExit", "dwellTime"], required: true)
            let action = try Self.action(o, "REGION", Self.actions)
            func identifier() throws(Failure) -> String {
                guard let id = o["identifier"]?.stringValue else {
                    throw Failure("?REGION: \(action) needs \"identifier\", a string naming the region")
                }
                return id
            }
            switch action {
            case "list":
                self = .list
            case "remove":
                self = .remove(identifier: try identifier())
            case "state":
                self = .state(identifier: try identifier())
            default:
                guard let lat = try number(o, "lat", in: "REGION"), let lon = try number(o, "lon", in: "REGION"),
                      let radius = try number(o, "radius", in: "REGION") else {
                    throw Failure("?REGION: add needs identifier, lat, lon and radius (metres), e.g. ?REGION={\"action\":\"add\",\"identifier\":\"home\",\"lat\":52.52,\"lon\":13.40,\"radius\":100};")
                }
                self = .add(RegionSpec(identifier: try identifier(), latitude: lat, longitude: lon, radius: radius,
                                       notifyOnEntry: try bool(o, "notifyOnEntry", in: "REGION"),
                                       notifyOnExit: try bool(o, "notifyOnExit", in: "REGION"),
                                       dwellTime: try number(o, "dwellTime", in: "REGION")))
            }
        }

        static func action(_ o: [String: JSONValue], _ name: String, _ known: [String]) throws(Failure) -> String {
            guard let v = o["action"] else { throw Failure("?\(name) needs \"action\": one of \(known.joined(separator: ", "))") }
            guard let action = v.stringValue, known.contains(action) else {
                throw Failure("?\(name): action must be one of \(known.joined(separator: ", ")), not \(v.stringValue.map { "'\($0)'" } ?? v.typeName)")
            }
            return action
        }
    }

    /// `?TRACK;` (status), or `?TRACK={"action":"start"|"pause"|"resume"|"stop"|"status"|"points",…};`.
    public enum TrackRequest: Equatable, Sendable {
        case status
        case command(LocationSession.RouteCommand)
        /// A page of the recorded points from `offset` (TRACKPOINTS).
        case points(offset: Int)

        static let actions = LocationSession.RouteCommand.allCases.map(\.rawValue) + ["status", "points"]

        init(_ argument: JSONValue?) throws(Failure) {
            guard argument != nil else {
                self = .status
                return
            }
            let o = try object(argument, "TRACK", known: ["action", "offset"], required: true)
            let action = try RegionRequest.action(o, "TRACK", Self.actions)
            if action != "points", o["offset"] != nil { throw Failure("?TRACK: offset goes with the action points") }
            switch action {
            case "status":
                self = .status
            case "points":
                let offset = try number(o, "offset", in: "TRACK") ?? 0
                guard offset >= 0, offset < 1e9, let index = Int(exactly: offset) else {
                    throw Failure("?TRACK: offset must be a whole number ≥ 0 (the index of the first point), not \(offset)")
                }
                self = .points(offset: index)
            default:
                guard let command = LocationSession.RouteCommand(rawValue: action) else {
                    throw Failure("?TRACK: unknown action \(action)")
                }
                self = .command(command)
            }
        }
    }
}
