import LodestoneCore
import LodestoneLocation
import LodestoneLogs
import LodestoneSession
import LodestoneSteering

/// The track objects (PROTOCOL.md): `TRACK` (the recorder's state and figures) and
/// `TRACKPOINTS` (a page of the recorded fixes, for export). LOCATION, REGION and
/// REGIONS are the session's (`LocationJSON.swift`), shared with `lodestone locate`.
enum LocationMessages {
    /// Points per TRACKPOINTS object: about 20 KB, well inside a client's queue.
    static let pointsPerPage = 100

    static func track(_ j: JSONLineBuilder, _ s: RouteStatistics, segments: Int, maximumPoints: Int) {
        j.beginObject()
        j.string("class", "TRACK")
        j.string("state", s.state.rawValue)
        j.number("distance", s.distance, decimals: 3)
        j.number("elapsedTime", s.elapsedTime, decimals: 3)
        j.number("movingTime", s.movingTime, decimals: 3)
        j.number("speed", s.currentSpeed, decimals: 3)
        j.number("averageSpeed", s.averageSpeed, decimals: 3)
        j.number("maximumSpeed", s.maximumSpeed, decimals: 3)
        j.integer("points", s.pointCount)
        j.integer("segments", segments)
        j.integer("maxPoints", maximumPoints)
        j.endObject()
    }

    /// The recorded fixes from `offset`, at most ``pointsPerPage``; `total` is the number recorded.
    static func trackPoints(_ j: JSONLineBuilder, _ segments: [[Location]], offset: Int) {
        let total = segments.reduce(0) { $0 + $1.count }
        var list = "["
        var index = 0, written = 0
        let item = JSONLineBuilder(capacity: 512)
        for (n, segment) in segments.enumerated() {
            guard written < pointsPerPage else { break }
            if index + segment.count <= offset {
                index += segment.count
                continue
            }
            for fix in segment.dropFirst(max(0, offset - index)) where written < pointsPerPage {
                item.removeAll()
                point(item, fix, segment: n)
                list += (written > 0 ? "," : "") + item.text.dropLast()
                written += 1
            }
            index += segment.count
        }
        j.beginObject()
        j.string("class", "TRACKPOINTS")
        j.integer("offset", offset)
        j.integer("total", total)
        j.raw("points", list + "]")
        j.endObject()
    }

    /// One point; values not known are left out.
    private static func point(_ j: JSONLineBuilder, _ fix: Location, segment: Int) {
        j.beginObject()
        j.integer("segment", segment)
        j.string("time", WallClockTime.iso8601(unixSeconds: fix.timestamp, fractionDigits: 3))
        j.number("lat", fix.latitude, decimals: 9)
        j.number("lon", fix.longitude, decimals: 9)
        if let v = fix.altitude { j.number("altitude", v, decimals: 3) }
        if let v = fix.speed { j.number("speed", v, decimals: 3) }
        if let v = fix.course { j.bearing("course", v, decimals: 2) }
        if let v = fix.horizontalAccuracy { j.number("horizontalAccuracy", v, decimals: 3) }
        if let v = fix.verticalAccuracy { j.number("verticalAccuracy", v, decimals: 3) }
        j.endObject()
    }
}
