import LodestoneJSON

/// The objects the live view needs beyond the client protocol's HEADING, EVENT and STEER
/// (PROTOCOL.md, "Live view"), written with the package's one JSON writer.
public enum LiveViewMessages {
    /// `{"class":"POSITION","lat":…,"lon":…,"source":"gpsd"|"fixed",…}`: where the board is.
    public static func position(latitude: Double, longitude: Double, source: String, altitude: Double? = nil,
                                horizontalAccuracy: Double? = nil, speed: Double? = nil, course: Double? = nil) -> String {
        let j = JSONLineBuilder(capacity: 256)
        j.beginObject()
        j.string("class", "POSITION")
        j.number("lat", latitude, decimals: 7)
        j.number("lon", longitude, decimals: 7)
        j.string("source", source)
        j.number("alt", altitude, decimals: 1)
        j.number("horizontalAccuracy", horizontalAccuracy, decimals: 1)
        j.number("speed", speed, decimals: 3)
        j.number("course", course, decimals: 2)
        j.endObject()
        return j.text
    }

    /// `{"class":"COVERAGE","regions":[100 counts],"percent":…}`: how much of the sphere of
    /// field directions a calibration has seen, over LodestoneCalibration's `EqualAreaSphere`
    /// (bands of 1, 6, 11, 15, 17, 17, 15, 11, 6, 1 regions from +z down, each 0.02·k high).
    public static func coverage(regionCounts: [Int], percent: Double) -> String {
        let j = JSONLineBuilder(capacity: 1024)
        j.beginObject()
        j.string("class", "COVERAGE")
        j.raw("regions", "[" + regionCounts.map(String.init).joined(separator: ",") + "]")
        j.number("percent", percent, decimals: 1)
        j.endObject()
        return j.text
    }

    /// The protocol's `linesDropped` EVENT, for a viewer that fell behind the buffer.
    static func linesDropped(_ count: Int, limit: Int) -> String {
        let j = JSONLineBuilder(capacity: 512)
        j.beginObject()
        j.string("class", "EVENT")
        j.string("event", "linesDropped")
        j.string("reason", "clientTooSlow")
        j.string("detail", "this viewer read too slowly: \(count) event(s) were skipped, the oldest first (buffer \(limit) events)")
        j.integer("count", count)
        j.endObject()
        return j.text
    }
}
