import LodestoneCore
import LodestoneJSON
import LodestoneLocation

/// One line of gpsd's JSON protocol, as far as Lodestone needs it.
///
/// gpsd answers `?WATCH={"enable":true,"json":true};` with VERSION, DEVICES
/// and WATCH objects, then a TPV (time-position-velocity) object per fix.
/// TPV `mode` is 0/1 without a fix, 2 for 2D and 3 for 3D. `altHAE` (height
/// above the WGS 84 ellipsoid, what the magnetic model takes) appeared in
/// gpsd 3.20; older gpsd sends `alt` (above mean sea level). `speed` is m/s,
/// `track` degrees from true north. Reference: gpsd_json(5).
///
/// Every number is checked before use: a value out of its range is dropped
/// (or makes the report a `noFix`), never converted blindly. The fix keeps
/// what gpsd gives: both altitudes, `eph` (else the larger of `epx` and `epy`)
/// and `epv` as the accuracies, `eps` and `epd` for speed and track.
public enum GPSDReport: Equatable, Sendable {
    /// A TPV with a usable fix (2D or 3D).
    case fix(Location)
    /// A TPV without a fix (mode 0 or 1, or no usable position); `mode` as sent when it is 0–3, else 0.
    case noFix(mode: Int)
    case version(release: String)
    case error(message: String)
    /// Any other class (DEVICES, WATCH, SKY, ATT …).
    case other(String)

    /// Parses a line; nil when it is not a JSON object with a class. `receivedAt` (Unix
    /// seconds) stands for the fix's time when gpsd sends none.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>, receivedAt: Double) -> GPSDReport? {
        guard let value = try? JSONParser.parse(line), let o = value.objectValue,
              let cls = o["class"]?.stringValue else { return nil }
        switch cls {
        case "TPV": return tpv(o, receivedAt: receivedAt)
        case "VERSION": return .version(release: o["release"]?.stringValue ?? "?")
        case "ERROR": return .error(message: o["message"]?.stringValue ?? "")
        default: return .other(cls)
        }
    }

    public static func parse(_ line: String, receivedAt: Double) -> GPSDReport? {
        var copy = line
        return copy.withUTF8 { parse($0, receivedAt: receivedAt) }
    }

    private static func tpv(_ o: [String: JSONValue], receivedAt: Double) -> GPSDReport {
        func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
            guard let v = o[key]?.numberValue, v.isFinite, range.contains(v) else { return nil }
            return v
        }
        let modeNumber = number("mode", in: 0...3)
        let mode = modeNumber.map { $0 == $0.rounded() ? Int($0) : 0 } ?? 0
        guard mode >= 2, let lat = number("lat", in: -90...90), let lon = number("lon", in: -180...360) else {
            return .noFix(mode: mode)
        }
        let error = 0.0...1e9, height = -1e5...1e8
        let epx = number("epx", in: error), epy = number("epy", in: error)
        let eph = number("eph", in: error) ?? epx.flatMap { x in epy.map { max(x, $0) } }
        return .fix(Location(
            latitude: lat, longitude: lon,
            altitude: mode == 3 ? number("altMSL", in: height) ?? number("alt", in: height) : nil,
            ellipsoidalAltitude: mode == 3 ? number("altHAE", in: height) : nil,
            horizontalAccuracy: eph, verticalAccuracy: mode == 3 ? number("epv", in: error) : nil,
            speed: number("speed", in: 0...1e5), speedAccuracy: number("eps", in: error),
            course: number("track", in: 0...360).map { $0 == 360 ? 0 : $0 }, courseAccuracy: number("epd", in: 0...360),
            timestamp: o["time"]?.stringValue.flatMap(WallClockTime.parse) ?? receivedAt))
    }
}
