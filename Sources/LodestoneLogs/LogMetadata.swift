import LodestoneCore
import LodestoneJSON

/// The header of a native Lodestone log: what recorded it, when, how fast, in which units.
///
/// Stored as one JSON line after the `# lodestone-log 1` magic line, so the
/// file stays a valid CSV with comments for any other tool.
public struct LogMetadata: Hashable, Sendable {
    /// Units of each quantity as written in the file.
    public struct Units: Hashable, Sendable {
        public var time: String
        public var acceleration: String
        public var magneticField: String
        public var angularRate: String

        public init(time: String = "s", acceleration: String = "m/s^2", magneticField: String = "uT",
                    angularRate: String = "rad/s") {
            self.time = time
            self.acceleration = acceleration
            self.magneticField = magneticField
            self.angularRate = angularRate
        }
    }

    /// Wall-clock instant of `time = 0`, ISO 8601 UTC.
    public var start: String?
    /// Nominal sample rate, Hz.
    public var rate: Double?
    public var units: Units
    /// Where the samples came from (e.g. `iio:local:`, `simulation`).
    public var source: String?
    /// Device identity and settings (names, drivers, scales, mount matrices).
    public var device: JSONValue?
    /// Free text from the person who recorded it.
    public var note: String?

    public init(start: String? = nil, rate: Double? = nil, units: Units = Units(), source: String? = nil,
                device: JSONValue? = nil, note: String? = nil) {
        self.start = start
        self.rate = rate
        self.units = units
        self.source = source
        self.device = device
        self.note = note
    }

    /// `start` as Unix seconds.
    public var startUnixSeconds: Double? { start.flatMap(WallClockTime.parse) }

    /// Parses the metadata line (without its leading `#`). Unknown keys are ignored.
    public static func decode(jsonLine: String) throws(LogMetadataError) -> LogMetadata {
        let document: JSONValue
        do {
            document = try JSONParser.parse(jsonLine)
        } catch {
            throw LogMetadataError(description: "not valid JSON: \(error)")
        }
        do {
            let root = JSONField(document)
            let units = try root.member("units")
            let device = try root.member("device")
            return LogMetadata(
                start: try root.member("start").optionalString(),
                rate: try root.member("rate").optionalNumber(),
                units: Units(time: try units.member("time").string(),
                             acceleration: try units.member("acceleration").string(),
                             magneticField: try units.member("magneticField").string(),
                             angularRate: try units.member("angularRate").string()),
                source: try root.member("source").optionalString(),
                device: device.isAbsent ? nil : device.value,
                note: try root.member("note").optionalString())
        } catch {
            throw LogMetadataError(description: error.description)
        }
    }

    /// The metadata as a JSON document; absent values are left out.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "units": .object(["time": .string(units.time), "acceleration": .string(units.acceleration),
                              "magneticField": .string(units.magneticField), "angularRate": .string(units.angularRate)]),
        ]
        if let start { members["start"] = .string(start) }
        if let rate { members["rate"] = .number(rate) }
        if let source { members["source"] = .string(source) }
        if let device { members["device"] = device }
        if let note { members["note"] = .string(note) }
        return .object(members)
    }

    /// The metadata as one compact JSON line (keys sorted, stable for diffs).
    public func jsonLine() -> String {
        let writer = JSONLineBuilder(capacity: 4096)
        writer.append(jsonValue)
        return writer.text
    }
}

/// Why a native log's metadata line could not be read.
public struct LogMetadataError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

/// Conversion factors from the units a log declares to Lodestone's SI units.
enum UnitConversion {
    static let timeUnits = ["s", "ms", "us", "µs", "ns"]
    static let accelerationUnits = ["m/s^2", "m/s2", "m/s²", "g", "mg"]
    static let magneticFieldUnits = ["uT", "µT", "μT", "nT", "mT", "G", "gauss", "mG"]
    static let angularRateUnits = ["rad/s", "deg/s", "°/s", "dps"]

    static func acceleration(_ unit: String) -> Double? {
        switch unit {
        case "m/s^2", "m/s2", "m/s²": return 1
        case "g": return 9.80665
        case "mg": return 0.00980665
        default: return nil
        }
    }

    static func magneticField(_ unit: String) -> Double? {
        switch unit {
        case "uT", "µT", "μT": return 1
        case "nT": return 0.001
        case "mT": return 1000
        case "G", "gauss": return 100
        case "mG": return 0.1
        default: return nil
        }
    }

    static func angularRate(_ unit: String) -> Double? {
        switch unit {
        case "rad/s": return 1
        case "deg/s", "°/s", "dps": return Double.pi / 180
        default: return nil
        }
    }

    static func time(_ unit: String) -> Double? {
        switch unit {
        case "s": return 1
        case "ms": return 0.001
        case "us", "µs": return 0.000001
        case "ns": return 0.000000001
        default: return nil
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmedOfBlanks: String {
        var sub = self[...]
        while let f = sub.first, f == " " || f == "\t" { sub = sub.dropFirst() }
        while let l = sub.last, l == " " || l == "\t" { sub = sub.dropLast() }
        return String(sub)
    }
}
