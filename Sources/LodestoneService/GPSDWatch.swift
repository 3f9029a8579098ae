import LodestoneCore
import LodestoneLogs

/// gpsd's own `?WATCH` keys (gpsd_json(5)), as gpsd's clients send them:
/// `gpspipe -w`, `cgps` and Python's `gps` module send `{"enable":true,"json":true}`,
/// `gpspipe -r` `{"enable":true,"nmea":true}`.
///
/// A `?WATCH` with any of them makes the client a gpsd client: it gets gpsd's objects
/// (DEVICES, WATCH, ATT; lines end in CR LF as gpsd's do) and none of Lodestone's
/// own (HEADING, EVENT), which gpsd's C library would refuse as unknown classes.
/// Keys that mean nothing here (`raw`, `scaled`, `split24`, `pps`, `timing`, `device`,
/// `remote`) are accepted and ignored; `headingFilter` may be given with them.
public struct GPSDWatchRequest: Equatable, Sendable {
    /// ATT objects (gpsd's default when neither `json` nor `nmea` is asked for).
    public var json: Bool
    /// NMEA 0183 heading and attitude sentences (HDM, HDT, HDG, XDR), as `gpspipe -r` reads.
    public var nmea: Bool

    public init(json: Bool, nmea: Bool) {
        self.json = json
        self.nmea = nmea
    }

    public static let keys = ["json", "nmea", "raw", "scaled", "split24", "pps", "timing", "device", "remote"]
    static let flags = ["scaled", "split24", "pps", "timing"]

    /// The gpsd part of a `?WATCH` object; nil when it has none of gpsd's keys.
    init?(_ o: [String: JSONValue]) throws(ClientCommand.Failure) {
        guard o.keys.contains(where: Self.keys.contains) else { return nil }
        func flag(_ key: String) throws(ClientCommand.Failure) -> Bool? {
            guard let v = o[key] else { return nil }
            guard let b = v.boolValue else { throw ClientCommand.Failure("?WATCH: \(key) must be true or false, not \(v.typeName)") }
            return b
        }
        for key in Self.flags { _ = try flag(key) }
        for key in ["device", "remote"] {
            if let v = o[key], v.stringValue == nil { throw ClientCommand.Failure("?WATCH: \(key) must be a string, not \(v.typeName)") }
        }
        if let v = o["raw"], v.numberValue == nil, v.boolValue == nil {
            throw ClientCommand.Failure("?WATCH: raw must be a number, not \(v.typeName)")
        }
        let nmea = try flag("nmea") ?? false
        json = try flag("json") ?? !nmea
        self.nmea = nmea
    }
}

/// What a gpsd client asked for, and when it last got an ATT.
struct GPSDWatch {
    var json: Bool
    var nmea: Bool
    /// Monotonic time of the last delivery.
    var lastDelivery = -Double.infinity

    /// gpsd clients read every report, so the default is no filter; ATT comes at most
    /// this often (seconds) all the same,
    static let shortestInterval = 0.1
    /// and with a headingFilter at least this often, so that clients that give up on
    /// silence (`cgps` after 5 s) keep reading while the board holds still.
    static let longestInterval = 1.0

    init(_ request: GPSDWatchRequest) {
        json = request.json
        nmea = request.nmea
    }

    /// Samples come with some jitter: an interval this much short still counts, seconds.
    static let slack = 0.002

    /// Whether the heading in `direction` goes to this client at `now`; updates `filter` and the time.
    mutating func shouldDeliver(_ direction: HeadingDirection, filter: inout HeadingFilter, now: Double) -> Bool {
        let since = now - lastDelivery + Self.slack
        guard since >= Self.shortestInterval else { return false }
        guard filter.shouldDeliver(direction) || since >= Self.longestInterval else { return false }
        lastDelivery = now
        return true
    }
}
