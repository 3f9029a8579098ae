import LodestoneCore

/// Reads GPX 1.1 (and 1.0) files: waypoints, routes and tracks with their
/// points' elevation, time, name, and speed, course and accuracy where the
/// file has them (GPX 1.0 elements, Garmin's TrackPointExtension, Lodestone's
/// extension). Other elements and extensions are skipped. Errors give the
/// line and column of the element at fault.
public enum GPXReader {
    public static func read(_ text: String) throws(GPXError) -> GPXDocument {
        try read(bytes: Array(text.utf8))
    }

    public static func read(bytes: [UInt8]) throws(GPXError) -> GPXDocument {
        let root: XMLElement
        do {
            root = try XMLReader.parse(bytes)
        } catch {
            throw GPXError(line: error.line, column: error.column, message: "not well-formed XML: \(error.message)")
        }
        guard root.name == "gpx" else {
            throw GPXError(line: root.line, column: root.column, message: "the root element is <\(root.qualifiedName)>, not <gpx>: is this a GPX file?")
        }
        let version = root.attribute("version") ?? "1.1"
        guard version == "1.1" || version == "1.0" else {
            throw GPXError(line: root.line, column: root.column, message: "GPX version \(version) is not supported (1.1 and 1.0 are)")
        }
        return try document(root)
    }

    private static func document(_ root: XMLElement) throws(GPXError) -> GPXDocument {
        var document = GPXDocument(creator: root.attribute("creator") ?? "")
        // GPX 1.1 keeps name and time in <metadata>; 1.0 directly in <gpx>.
        let header = root.child("metadata") ?? root
        document.name = header.child("name")?.text
        if let time = header.child("time") { document.time = try self.time(time) }
        for child in root.children {
            switch child.name {
            case "wpt":
                document.waypoints.append(try point(child))
            case "rte":
                var route = GPXRoute(name: child.child("name")?.text)
                for p in child.children where p.name == "rtept" { route.points.append(try point(p)) }
                document.routes.append(route)
            case "trk":
                var track = GPXTrack(name: child.child("name")?.text)
                for segment in child.children where segment.name == "trkseg" {
                    var points: [GPXPoint] = []
                    for p in segment.children where p.name == "trkpt" { points.append(try point(p)) }
                    track.segments.append(points)
                }
                document.tracks.append(track)
            default:
                continue
            }
        }
        return document
    }

    private static func point(_ e: XMLElement) throws(GPXError) -> GPXPoint {
        let latitude = try coordinate(e, "lat", limit: 90)
        let longitude = try coordinate(e, "lon", limit: 180)
        var p = GPXPoint(latitude: latitude, longitude: longitude)
        for child in e.children {
            switch child.name {
            case "ele": p.elevation = try number(child)
            case "time": p.time = try time(child)
            case "name": p.name = child.text
            case "speed": p.speed = try number(child)
            case "course": p.course = try number(child)
            case "extensions": try readExtensions(child, into: &p)
            default: continue
            }
        }
        return p
    }

    /// Speed and course from any TrackPointExtension-like element; accuracies from Lodestone's.
    private static func readExtensions(_ e: XMLElement, into p: inout GPXPoint) throws(GPXError) {
        if let speed = e.descendants(named: "speed").first { p.speed = try number(speed) }
        if let course = e.descendants(named: "course").first { p.course = try number(course) }
        if let accuracy = e.descendants(named: "accuracy").first {
            p.horizontalAccuracy = try accuracy.attribute("horizontal").map { (text) throws(GPXError) in try number(text, accuracy, "horizontal") }
            p.verticalAccuracy = try accuracy.attribute("vertical").map { (text) throws(GPXError) in try number(text, accuracy, "vertical") }
        }
    }

    private static func coordinate(_ e: XMLElement, _ name: String, limit: Double) throws(GPXError) -> Double {
        guard let text = e.attribute(name) else {
            throw GPXError(line: e.line, column: e.column, message: "<\(e.qualifiedName)> has no \(name) attribute")
        }
        let value = try number(text, e, name)
        guard abs(value) <= limit else {
            throw GPXError(line: e.line, column: e.column, message: "<\(e.qualifiedName)> \(name)=\"\(text)\" is outside [-\(Int(limit)), \(Int(limit))] degrees")
        }
        return value
    }

    private static func number(_ e: XMLElement) throws(GPXError) -> Double {
        try number(e.text, e, nil)
    }

    /// A finite decimal number (leading and trailing whitespace allowed, as xsd:decimal).
    /// `attribute` names the attribute holding `text`; nil: the text of `e` itself.
    private static func number(_ text: String, _ e: XMLElement, _ attribute: String?) throws(GPXError) -> Double {
        let trimmed = text.trimmingXMLSpace
        guard let value = Double(trimmed), value.isFinite,
              trimmed.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }) else {
            let what = attribute.map { "\($0) '\(text)' in <\(e.qualifiedName)>" } ?? "<\(e.qualifiedName)> '\(text)'"
            throw GPXError(line: e.line, column: e.column, message: "\(what) is not a finite number")
        }
        return value
    }

    private static func time(_ e: XMLElement) throws(GPXError) -> Double {
        guard let t = WallClockTime.parse(e.text.trimmingXMLSpace) else {
            throw GPXError(line: e.line, column: e.column, message: "<time> '\(e.text)' is not an ISO 8601 date and time such as 2026-03-14T09:26:53Z")
        }
        return t
    }
}

extension String {
    /// Without the XML whitespace (space, tab, CR, LF) at either end.
    var trimmingXMLSpace: String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
