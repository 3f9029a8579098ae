import LodestoneDBus
import LodestoneHTTP
import LodestoneLogs
import LodestoneNetwork
import LodestoneSession

/// The configuration of the listeners with threads of their own: the D-Bus compass
/// (`dbus`) and the live view (`http`). Both are off by default.
///
/// ```json
/// "dbus": {"enable": true, "address": null, "allowedUsers": ["root", "geoclue"],
///          "allowedGroups": ["lodestone"], "headingFilter": 1, "maximumRate": 10},
/// "http": {"listen": "127.0.0.1:8080", "allowedHosts": ["board.local"], "maxClients": 16}
/// ```
extension ServiceConfiguration {
    /// The D-Bus compass: whether it runs, and how.
    public struct DBus: Hashable, Sendable {
        public var enable = false
        public var compass = DBusCompassSettings()

        public init() {}
    }

    static let defaultHTTPPort: UInt16 = 8080

    /// Parses `--http`'s and `http.listen`'s `HOST:PORT` (loopback without a host; port 0 picks a free one).
    public static func httpEndpoint(_ text: String) -> Result<Endpoint, Endpoint.ParseError> {
        Endpoint.parse(text, defaultHost: "127.0.0.1", defaultPort: defaultHTTPPort, anyPort: true)
    }

    mutating func applyDBus(_ value: JSONValue) throws(ConfigurationError) {
        let d = try ConfigurationKeys(value, path: "dbus",
                                      known: ["enable", "address", "allowedUsers", "allowedGroups", "headingFilter", "maximumRate"])
        if let v = try d.bool("enable") { dbus.enable = v }
        if d["address"] != nil { dbus.compass.bus = try d.optionalString("address").map { .address($0) } ?? .system }
        if let v = d["allowedUsers"] { dbus.compass.allowedUsers = try Self.names(v, key: "dbus.allowedUsers") }
        if let v = d["allowedGroups"] { dbus.compass.allowedGroups = try Self.names(v, key: "dbus.allowedGroups") }
        if let v = try d.number("headingFilter") { dbus.compass.headingFilter = v }
        if let v = try d.number("maximumRate") { dbus.compass.maximumRate = v }
    }

    mutating func applyHTTP(_ value: JSONValue) throws(ConfigurationError) {
        if case .null = value {
            http = nil
            return
        }
        let h = try ConfigurationKeys(value, path: "http", known: ["listen", "allowedHosts", "maxClients"])
        var settings = http ?? HTTPServerSettings()
        if let t = try h.string("listen") {
            switch Self.httpEndpoint(t) {
            case .success(let e): settings.listen = e
            case .failure(let e): throw ConfigurationError(key: "http.listen", e.message)
            }
        }
        if let v = h["allowedHosts"] { settings.allowedHosts = try Self.names(v, key: "http.allowedHosts") }
        if let v = try h.integer("maxClients") { settings.maxClients = v }
        http = settings
    }

    private static func names(_ value: JSONValue, key: String) throws(ConfigurationError) -> [String] {
        guard let items = value.arrayValue else { throw ConfigurationError(key: key, "must be an array of names, not \(value.typeName)") }
        var names: [String] = []
        for (n, item) in items.enumerated() {
            guard let name = item.stringValue, !name.isEmpty else { throw ConfigurationError(key: "\(key)[\(n)]", "must be a name, not \(item.typeName)") }
            names.append(name)
        }
        return names
    }

    func validateListeners() throws(ConfigurationError) {
        let c = dbus.compass
        guard c.headingFilter.isFinite, c.headingFilter >= 0, c.headingFilter <= 180 else {
            throw ConfigurationError(key: "dbus.headingFilter", "must be between 0 and 180 degrees, not \(c.headingFilter)")
        }
        guard c.maximumRate.isFinite, c.maximumRate > 0, c.maximumRate <= 100 else {
            throw ConfigurationError(key: "dbus.maximumRate", "must be between 0 and 100 signals per second, not \(c.maximumRate)")
        }
        if case .address(let a) = c.bus, a.isEmpty {
            throw ConfigurationError(key: "dbus.address", "must be a D-Bus address such as unix:path=/run/dbus/system_bus_socket, or null for the system bus")
        }
        if let h = http, !(1...1024).contains(h.maxClients) {
            throw ConfigurationError(key: "http.maxClients", "must be between 1 and 1024, not \(h.maxClients)")
        }
    }
}
