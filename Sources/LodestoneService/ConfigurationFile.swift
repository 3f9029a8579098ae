#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs
import LodestoneNetwork
import LodestoneSession

/// Reads the JSON config file of `lodestone serve` (documented in docs/service.md,
/// example in `tools/lodestone.example.json`).
///
/// Every key is optional; unknown keys are errors (a typo must not be ignored
/// silently), and each error names the key. Relative paths are taken from
/// the config file's directory.
extension ServiceConfiguration {
    /// Reads and applies a config file on top of `self`.
    public func applying(file path: String) throws(ConfigurationError) -> ServiceConfiguration {
        // FileBytes refuses a FIFO, a device or a directory without waiting for it.
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: Self.maximumFileSize)
        } catch {
            throw ConfigurationError(key: "(file)", "cannot be read: \(error)", origin: path, isAccessProblem: true)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(key: "(file)", "cannot be read: not UTF-8 text", origin: path, isAccessProblem: true)
        }
        return try applying(text: text, path: path)
    }

    /// Larger than any config file; a bigger file is the wrong one.
    static let maximumFileSize = 1 << 20

    /// Applies the text of the config file at `path` on top of `self`.
    public func applying(text: String, path: String) throws(ConfigurationError) -> ServiceConfiguration {
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

    /// The root keys of the service's own settings (the heading session's are ``HeadingConfiguration/jsonKeys``).
    static let serviceKeys = ["socket", "socketMode", "listen", "nmea", "limits", "dbus", "http"]

    /// Applies a parsed config object on top of `self`.
    public func applying(json: JSONValue, baseDirectory: String = ".") throws(ConfigurationError) -> ServiceConfiguration {
        var c = self
        let root = try ConfigurationKeys(json, path: "", known: HeadingConfiguration.jsonKeys + Self.serviceKeys + Self.locationKeys)
        func resolve(_ p: String) -> String { p.hasPrefix("/") ? p : baseDirectory + "/" + p }
        try c.heading.apply(root, resolve: resolve)
        if root["socket"] != nil { c.socketPath = try root.optionalString("socket").map(resolve) }
        if let v = try root.string("socketMode") {
            guard let mode = UInt32(v, radix: 8) else { throw ConfigurationError(key: "socketMode", "must be an octal mode such as \"0660\", not '\(v)'") }
            c.socketMode = mode
        }
        if let listen = root["listen"] { c.tcpListeners = try Self.listeners(listen) }
        if let nmea = root["nmea"] { try c.applyNMEA(nmea) }
        if let dbus = root["dbus"] { try c.applyDBus(dbus) }
        if let http = root["http"] { try c.applyHTTP(http) }
        try c.applyLocation(root, resolve: resolve)
        if let limits = root["limits"] {
            let l = try ConfigurationKeys(limits, path: "limits", known: ["maxClients", "maxNetworkClients", "maxLineLength", "clientQueueBytes", "idleTimeout"])
            if let v = try l.integer("maxClients") { c.limits.maxClients = v }
            if let v = try l.integer("maxNetworkClients") { c.limits.maxNetworkClients = v }
            if let v = try l.number("idleTimeout") { c.limits.idleTimeout = v }
            if let v = try l.integer("maxLineLength") { c.limits.maxLineLength = v }
            if let v = try l.integer("clientQueueBytes") { c.limits.clientQueueBytes = v }
        }
        try c.validate()
        return c
    }

    private static func listeners(_ listen: JSONValue) throws(ConfigurationError) -> [Endpoint] {
        guard let items = listen.arrayValue else {
            throw ConfigurationError(key: "listen", "must be an array of \"HOST:PORT\" strings, not \(listen.typeName)")
        }
        var endpoints: [Endpoint] = []
        for (n, item) in items.enumerated() {
            guard let t = item.stringValue else { throw ConfigurationError(key: "listen[\(n)]", "must be a \"HOST:PORT\" string, not \(item.typeName)") }
            switch Endpoint.parse(t, defaultHost: "127.0.0.1", defaultPort: nil) {
            case .success(let e): endpoints.append(e)
            case .failure(let e): throw ConfigurationError(key: "listen[\(n)]", e.message)
            }
        }
        return endpoints
    }

    private mutating func applyNMEA(_ value: JSONValue) throws(ConfigurationError) {
        let n = try ConfigurationKeys(value, path: "nmea", known: ["listen", "serial", "baud", "rate", "talker"])
        if n["listen"] != nil {
            nmea.listen = try n.optionalString("listen").map { t throws(ConfigurationError) in
                switch Endpoint.parse(t, defaultHost: "127.0.0.1", defaultPort: Self.defaultNMEAPort) {
                case .success(let e): return e
                case .failure(let e): throw ConfigurationError(key: "nmea.listen", e.message)
                }
            }
        }
        if n["serial"] != nil { nmea.serial = try n.optionalString("serial") }
        if let v = try n.integer("baud") { nmea.baud = v }
        if let v = try n.number("rate") { nmea.rate = v }
        if let v = try n.string("talker") { nmea.talker = v }
    }
}
