import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// The objects the server sends, one JSON line each, in gpsd's style: every
/// object has a `class`. See `PROTOCOL.md` for the fields.
public enum ProtocolMessages {
    public static let protocolMajor = 1
    /// 1.1: HEADING's pitch, roll and expectedField; gpsd's keys in VERSION; gpsd clients (GPSDWatch).
    /// 1.2: the location half (LOCATION, REGION(S), TRACK(POINTS), ?REGION, ?TRACK, the
    /// location keys of ?WATCH, STEER on fixes, settled in POLL).
    public static let protocolMinor = 2

    static func version(_ j: JSONLineBuilder, release: String) {
        j.beginObject()
        j.string("class", "VERSION")
        j.string("release", release)
        j.integer("protoMajor", protocolMajor)
        j.integer("protoMinor", protocolMinor)
        GPSDMessages.versionKeys(j, release: release)
        // CR LF as gpsd ends its lines: gpsd's Python client reads no other, and this is
        // the line every client gets before it says which objects it wants.
        j.endObjectCRLF()
    }

    /// Speed and course from gpsd, when the position comes from gpsd.
    struct Motion {
        var speed: Double?
        var course: Double?
    }

    static func heading(_ j: JSONLineBuilder, _ h: Heading, attitude a: HeadingAttitude, time: Double, motion: Motion?) {
        j.beginObject()
        j.string("class", "HEADING")
        j.time("time", unixSeconds: time)
        j.number("timestamp", h.timestamp, decimals: 6)
        j.bearing("magneticHeading", h.magneticHeading, decimals: 3)
        j.bearing("trueHeading", h.trueHeading, decimals: 3)
        j.number("headingAccuracy", h.headingAccuracy, decimals: 2)
        j.number("declination", h.reportedDeclination, decimals: 3)
        j.number("x", h.x, decimals: 3)
        j.number("y", h.y, decimals: 3)
        j.number("z", h.z, decimals: 3)
        j.number("pitch", a.tilt.pitch, decimals: 2)
        j.number("roll", a.tilt.roll, decimals: 2)
        j.number("expectedField", a.expectedField, decimals: 2)
        if let motion {
            j.number("speed", motion.speed, decimals: 3)
            j.bearing("course", motion.course, decimals: 2)
        }
        j.endObject()
    }

    static func event(_ j: JSONLineBuilder, _ e: ServiceEvent, time: Double) {
        beginEvent(j, e, time: time)
        if let flags = e.flags {
            let list = JSONLineBuilder(capacity: 256)
            list.append(.array(flags.map { .string($0) }))
            j.raw("flags", list.text)
        }
        j.endObject()
    }

    /// Opens an EVENT object with the keys every event has; the caller adds its own and closes it.
    static func beginEvent(_ j: JSONLineBuilder, _ e: ServiceEvent, time: Double) {
        j.beginObject()
        j.string("class", "EVENT")
        j.time("time", unixSeconds: time)
        j.string("event", e.name)
        if let state = e.state { j.string("state", state) }
        j.string("reason", e.reason)
        j.string("detail", e.detail)
    }

    static func dropped(_ j: JSONLineBuilder, count: Int, limit: Int, time: Double) {
        let detail = "this client read too slowly: \(count) line(s) were dropped, the oldest first (queue limit \(limit) bytes)"
        beginEvent(j, ServiceEvent("linesDropped", reason: "clientTooSlow", detail), time: time)
        j.integer("count", count)
        j.endObject()
    }

    /// An ERROR object as one line, for a connection that has no client yet (refused).
    static func errorLine(_ message: String) -> String {
        let j = JSONLineBuilder(capacity: 256)
        error(j, message)
        return j.text
    }

    static func error(_ j: JSONLineBuilder, _ message: String) {
        j.beginObject()
        j.string("class", "ERROR")
        j.string("message", message)
        j.endObject()
    }

    static func watch(_ j: JSONLineBuilder, enable: Bool, headingFilter: Double, location: ClientLocation) {
        j.beginObject()
        j.string("class", "WATCH")
        j.bool("enable", enable)
        j.number("headingFilter", headingFilter, decimals: 3)
        j.bool("heading", location.headings)
        j.bool("location", location.locations)
        j.number("distanceFilter", location.delivery.distanceFilter, decimals: 3)
        j.number("desiredAccuracy", location.delivery.desiredAccuracy.isFinite ? location.delivery.desiredAccuracy : nil, decimals: 3)
        j.bool("regions", location.regions)
        j.bool("track", location.track)
        j.endObject()
    }

    /// `{"class":"POLL","time":…,"active":N,"settled":BOOL,"heading":{HEADING object}|null}`.
    static func poll(_ j: JSONLineBuilder, time: Double, active: Int, headingLine: UnsafeBufferPointer<UInt8>?, settled: Bool) {
        j.beginObject()
        j.string("class", "POLL")
        j.time("time", unixSeconds: time)
        j.integer("active", active)
        j.bool("settled", settled)
        if let line = headingLine, line.count > 1 {
            // The HEADING object as it was sent, without its newline.
            j.raw("heading", String(decoding: UnsafeBufferPointer(rebasing: line[0..<(line.count - 1)]), as: UTF8.self))
        } else {
            j.raw("heading", "null")
        }
        j.endObject()
    }

    /// For a gpsd client each DEVICE also has gpsd's `activated` (when the sensors were
    /// last claimed; left out while they are idle) and `flags` (0: none of gpsd's GPS,
    /// RTCM or AIS kinds), and the line ends in CR LF.
    static func devices(_ j: JSONLineBuilder, source: String, devices: [DeviceDescription], gpsd: Bool = false, activated: Double? = nil) {
        j.beginObject()
        j.string("class", "DEVICES")
        j.string("source", source)
        var list = ""
        for (n, d) in devices.enumerated() {
            let item = JSONLineBuilder(capacity: 1024)
            item.beginObject()
            item.string("class", "DEVICE")
            item.string("kind", d.kind)
            item.string("path", d.path)
            if let v = d.name { item.string("name", v) }
            if let v = d.driver { item.string("driver", v) }
            if let v = d.rate { item.number("rate", v, decimals: 3) }
            if let v = d.detail { item.string("detail", v) }
            if gpsd {
                if let t = activated { item.time("activated", unixSeconds: t) }
                item.integer("flags", 0)
            }
            item.endObject()
            list += (n > 0 ? "," : "") + item.text.dropLast()
        }
        j.raw("devices", "[" + list + "]")
        if gpsd { j.endObjectCRLF() } else { j.endObject() }
    }
}
