/// Raw counts of one three-axis sensor.
@frozen
public struct RawTriple: Hashable, Sendable, Codable {
    public var x: Int64
    public var y: Int64
    public var z: Int64

    @inlinable
    public init(_ x: Int64, _ y: Int64, _ z: Int64) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = RawTriple(0, 0, 0)
}

/// Raw counts behind the latest sample (for `lodestone record`).
public struct IIORawCounts: Hashable, Sendable, Codable {
    public var magnetometer: RawTriple
    public var accelerometer: RawTriple
    public var gyroscope: RawTriple?

    public init(magnetometer: RawTriple, accelerometer: RawTriple, gyroscope: RawTriple?) {
        self.magnetometer = magnetometer
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
    }
}

/// Health of one sensor: a stuck sensor repeats the same raw triple; a saturated
/// one sits at the end of its range (a magnet nearby, a shock).
public struct IIOSensorHealth: Hashable, Sendable, Codable {
    public var kind: IIOSensorKind
    /// Identical raw triples in a row, now.
    public var identicalRun: Int
    /// The run reached the configured limit.
    public var isStuck: Bool
    /// The latest raw triple had an axis at or past the saturation limit (or the overflow marker).
    public var isSaturated: Bool
    public var saturatedSamples: Int
    public var samples: Int

    public init(kind: IIOSensorKind) {
        self.kind = kind
        identicalRun = 0
        isStuck = false
        isSaturated = false
        saturatedSamples = 0
        samples = 0
    }

    @inlinable
    mutating func observe(_ raw: RawTriple, previous: RawTriple?, limit: Int64, overflow: Int64?, stuckAfter: Int) {
        samples += 1
        identicalRun = previous == raw ? identicalRun + 1 : 1
        isStuck = identicalRun >= stuckAfter
        var sat = abs(raw.x) >= limit || abs(raw.y) >= limit || abs(raw.z) >= limit
        if let o = overflow { sat = sat || raw.x == o || raw.y == o || raw.z == o }
        isSaturated = sat
        if sat { saturatedSamples += 1 }
    }
}

/// What the source knows about its own state, for error events and `lodestone devices`.
public struct IIOSourceDiagnostics: Hashable, Sendable, Codable {
    public var magnetometer: IIOSensorHealth
    public var accelerometer: IIOSensorHealth
    public var gyroscope: IIOSensorHealth?
    public var samplesEmitted: Int
    /// Scans lost because the consumer fell behind.
    public var droppedScans: Int
    /// Times the devices were reopened after a transient error.
    public var reopenCount: Int
    public var lastError: String?
    /// Why the gyroscope's thermometer stopped being read, if it did: gyro
    /// fusion then no longer follows the part's warming.
    public var thermometerFailure: String?

    /// What is wrong now, stuck sensors first; empty when all is well.
    public var problems: [IIOHealthProblem] {
        let sensors = [magnetometer, accelerometer, gyroscope].compactMap { $0 }
        return sensors.filter(\.isStuck).map { .stuck($0.kind, identicalRun: $0.identicalRun) }
            + sensors.filter(\.isSaturated).map { .saturated($0.kind) }
            + (thermometerFailure.map { [.thermometerFailed($0)] } ?? [])
    }
}

/// One thing wrong with a source's sensors, by kind: what an event names
/// must not be read back out of a sentence made for people.
public enum IIOHealthProblem: Hashable, Sendable {
    /// The sensor repeats one raw triple (`identicalRun` in a row).
    case stuck(IIOSensorKind, identicalRun: Int)
    /// An axis sits at the end of its range.
    case saturated(IIOSensorKind)
    /// The gyroscope's thermometer stopped being read, and why.
    case thermometerFailed(String)

    public var sentence: String {
        switch self {
        case .stuck(let kind, let run): return "\(kind.noun) stuck: identical raw values for \(run) samples"
        case .saturated(let kind): return "\(kind.noun) saturated: an axis is at the end of its range"
        case .thermometerFailed(let why): return why
        }
    }
}
