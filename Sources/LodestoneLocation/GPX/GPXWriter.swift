import LodestoneCore
import LodestoneJSON
import LodestoneSteering

/// Writes a ``GPXDocument`` as GPX 1.1 that validates against the official
/// schema (<http://www.topografix.com/GPX/1/1/gpx.xsd>).
///
/// Elements follow the schema's sequences; coordinates are written with nine
/// decimals (0.1 mm), so distances computed from the file agree with the
/// recording to well under a millimetre per leg. GPX 1.1 has no speed, course
/// or accuracy: speed and course go into Garmin's TrackPointExtension v2, which
/// most readers know, and the accuracies into a Lodestone extension; both sit
/// in `<extensions>`, which the schema leaves open to other namespaces.
public enum GPXWriter {
    public static let gpxNamespace = "http://www.topografix.com/GPX/1/1"
    public static let trackPointExtensionNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    public static let lodestoneNamespace = "urn:x-lodestone:gpx:1"

    public static func write(_ document: GPXDocument) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(escape(document.creator))" xmlns="\(gpxNamespace)" \
            xmlns:gpxtpx="\(trackPointExtensionNamespace)" xmlns:lodestone="\(lodestoneNamespace)" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="\(gpxNamespace) http://www.topografix.com/GPX/1/1/gpx.xsd">

            """
        if document.name != nil || document.time != nil {
            out += "  <metadata>\n"
            if let name = document.name { out += "    <name>\(escape(name))</name>\n" }
            if let time = document.time { out += "    <time>\(timeText(time))</time>\n" }
            out += "  </metadata>\n"
        }
        for point in document.waypoints { write(point, element: "wpt", indent: "  ", into: &out) }
        for route in document.routes {
            out += "  <rte>\n"
            if let name = route.name { out += "    <name>\(escape(name))</name>\n" }
            for point in route.points { write(point, element: "rtept", indent: "    ", into: &out) }
            out += "  </rte>\n"
        }
        for track in document.tracks {
            out += "  <trk>\n"
            if let name = track.name { out += "    <name>\(escape(name))</name>\n" }
            for segment in track.segments {
                out += "    <trkseg>\n"
                for point in segment { write(point, element: "trkpt", indent: "      ", into: &out) }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        return out + "</gpx>\n"
    }

    private static func write(_ p: GPXPoint, element: String, indent: String, into out: inout String) {
        out += "\(indent)<\(element) lat=\"\(number(p.latitude, 9))\" lon=\"\(number(p.longitude, 9))\">"
        var body = ""
        if let e = p.elevation, e.isFinite { body += "<ele>\(number(e, 3))</ele>" }
        if let t = p.time, t.isFinite { body += "<time>\(timeText(t))</time>" }
        if let name = p.name { body += "<name>\(escape(name))</name>" }
        body += extensions(p)
        out += body + "</\(element)>\n"
    }

    private static func extensions(_ p: GPXPoint) -> String {
        var garmin = ""
        if let s = p.speed, s.isFinite, s >= 0 { garmin += "<gpxtpx:speed>\(number(s, 3))</gpxtpx:speed>" }
        if let c = p.course, c.isFinite { garmin += "<gpxtpx:course>\(number(BearingRounding.rounded(c, decimals: 2), 2))</gpxtpx:course>" }
        var accuracy = ""
        if let h = p.horizontalAccuracy, h.isFinite, h >= 0 { accuracy += " horizontal=\"\(number(h, 2))\"" }
        if let v = p.verticalAccuracy, v.isFinite, v >= 0 { accuracy += " vertical=\"\(number(v, 2))\"" }
        guard !garmin.isEmpty || !accuracy.isEmpty else { return "" }
        var text = "<extensions>"
        if !garmin.isEmpty { text += "<gpxtpx:TrackPointExtension>\(garmin)</gpxtpx:TrackPointExtension>" }
        if !accuracy.isEmpty { text += "<lodestone:accuracy\(accuracy)/>" }
        return text + "</extensions>"
    }

    /// xsd:dateTime in UTC with milliseconds.
    static func timeText(_ unixSeconds: Double) -> String {
        WallClockTime.iso8601(unixSeconds: unixSeconds, fractionDigits: 3)
    }

    /// A decimal without exponent (xsd:decimal allows none).
    static func number(_ value: Double, _ decimals: Int) -> String {
        let writer = JSONLineBuilder(capacity: 64)
        writer.appendNumber(value, decimals: decimals)
        return writer.text
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            default:
                // XML 1.0 has no place for other control characters: drop them.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
