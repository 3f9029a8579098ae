import LodestoneLogs

/// One line of gpsd's JSON protocol, as far as Lodestone needs it.
///
/// gpsd answers `?WATCH={"enable":true,"json":true};` with VERSION, DEVICES
/// and WATCH objects, then a TPV (time-position-velocity) object per fix.
/// TPV `mode` is 0/1 without a fix, 2 for 2D and 3 for 3D. `altHAE` (height
/// above the WGS 84 ellipsoid, what the magnetic model takes) appeared in
/// gpsd 3.20; older gpsd sends `alt` (above mean sea level, up to ~100 m off,
/// harmless for declination). `speed` is m/s, `track` degrees from true north.
/// Reference: gpsd_json(5).
public enum GPSDReport: Equatable, Sendable {
    public struct Fix: Equatable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Metres above the WGS 84 ellipsoid (or mean sea level from old gpsd), 0 when unknown.
        public var height: Double
        /// Ground speed, m/s.
        public var speed: Double?
        /// Course over ground, degrees from true north.
        public var course: Double?
        /// 2 or 3.
        public var mode: Int
        /// gpsd's time of the fix, as sent.
        public var time: String?
    }

    /// A TPV with a usable fix.
    case fix(Fix)
    /// A TPV without a fix (mode 0 or 1, or no position).
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
        case "TPV":
            let mode = o["mode"]?.numberValue.map { Int($0) } ?? 0
            guard mode >= 2, let lat = o["lat"]?.numberValue, let lon = o["lon"]?.numberValue,
                  (-90...90).contains(lat), (-180...360).contains(lon) else { return .noFix(mode: mode) }
            let height = o["altHAE"]?.numberValue ?? o["alt"]?.numberValue ?? 0
            let speed = o["speed"]?.numberValue.flatMap { $0 >= 0 ? $0 : nil }
            let course = o["track"]?.numberValue.flatMap { (0...360).contains($0) ? $0 : nil }
            return .fix(Fix(latitude: lat, longitude: lon, height: height.isFinite ? height : 0, speed: speed,
                            course: course, mode: mode, time: o["time"]?.stringValue))
        case "VERSION":
            return .version(release: o["release"]?.stringValue ?? "?")
        case "ERROR":
            return .error(message: o["message"]?.stringValue ?? "")
        default:
            return .other(cls)
        }
    }

    public static func parse(_ line: String) -> GPSDReport? {
        var copy = line
        return copy.withUTF8 { parse($0) }
    }
}
