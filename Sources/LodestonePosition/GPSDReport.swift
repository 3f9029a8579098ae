import LodestoneCore
import LodestoneJSON

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
/// (or makes the report a `noFix`), never converted blindly.
public enum GPSDReport: Equatable, Sendable {
    /// A TPV with a usable fix.
    case fix(PositionFix)
    /// A TPV without a fix (mode 0 or 1, or no usable position); `mode` as sent when it is 0–3, else 0.
    case noFix(mode: Int)
    case version(release: String)
    case error(message: String)
    /// Any other class (DEVICES, WATCH, SKY, ATT …).
    case other(String)

    /// Parses a line; nil when it is not a JSON object with a class.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) -> GPSDReport? {
        guard let value = try? JSONParser.parse(line), let o = value.objectValue,
              let cls = o["class"]?.stringValue else { return nil }
        switch cls {
        case "TPV": return tpv(o)
        case "VERSION": return .version(release: o["release"]?.stringValue ?? "?")
        case "ERROR": return .error(message: o["message"]?.stringValue ?? "")
        default: return .other(cls)
        }
    }

    public static func parse(_ line: String) -> GPSDReport? {
        var copy = line
        return copy.withUTF8 { parse($0) }
    }

    private static func tpv(_ o: [String: JSONValue]) -> GPSDReport {
        func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
            guard let v = o[key]?.numberValue, v.isFinite, range.contains(v) else { return nil }
            return v
        }
        let modeNumber = number("mode", in: 0...3)
        let mode = modeNumber.flatMap { $0 == $0.rounded() ? PositionFix.Mode(rawValue: Int($0)) : nil }
        guard let mode, let lat = number("lat", in: -90...90), let lon = number("lon", in: -180...360) else {
            return .noFix(mode: modeNumber.map { $0 == $0.rounded() ? Int($0) : 0 } ?? 0)
        }
        let error = 0.0...1e9, height = -1e5...1e8
        let epx = number("epx", in: error), epy = number("epy", in: error)
        let eph = number("eph", in: error) ?? epx.flatMap { x in epy.map { max(x, $0) } }
        return .fix(PositionFix(
            latitude: lat, longitude: lon,
            altitude: number("altHAE", in: height),
            altitudeMSL: number("altMSL", in: height) ?? number("alt", in: height),
            horizontalAccuracy: eph, verticalAccuracy: number("epv", in: error),
            speed: number("speed", in: 0...1e5), speedAccuracy: number("eps", in: error),
            track: number("track", in: 0...360).map { $0 == 360 ? 0 : $0 }, trackAccuracy: number("epd", in: 0...360),
            climb: number("climb", in: -1e5...1e5), climbAccuracy: number("epc", in: error),
            time: o["time"]?.stringValue.flatMap(WallClockTime.parse), timeAccuracy: number("ept", in: error),
            mode: mode))
    }
}
