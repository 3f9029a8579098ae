import LodestoneCore
import LodestoneIIO

/// Where a session's samples come from: IIO sensors, a recorded log, or the simulated board.
public enum SourceConfiguration: Hashable, Sendable {
    case iio(IIOSourceConfiguration)
    case replay(ReplaySettings)
    case simulated(SimulatedSettings)

    /// The name used in config files and in `--source`: `iio`, `replay` or `simulated`.
    public var kind: String {
        switch self {
        case .iio: return "iio"
        case .replay: return "replay"
        case .simulated: return "simulated"
        }
    }

    /// The sample rates every command accepts, Hz, and the default (`--rate`, `source.rate`).
    public static let rates: ClosedRange<Double> = 0.1...10_000
    public static let defaultRate = IIOSourceConfiguration().rate
    /// The simulated board's rates, Hz.
    public static let simulatedRates: ClosedRange<Double> = 1...1000
}

/// A recorded log, paced by its own timestamps.
public struct ReplaySettings: Hashable, Sendable {
    public var path: String
    /// Start again at the end (log time keeps increasing).
    public var loop: Bool
    /// Log seconds per second; nil replays as fast as possible.
    public var speed: Double?

    public init(path: String, loop: Bool = false, speed: Double? = 1) {
        self.path = path
        self.loop = loop
        self.speed = speed
    }
}

/// The simulated board: the demo motion with typical sensor noise, paced in real time. For demos.
public struct SimulatedSettings: Hashable, Sendable {
    public var rate: Double

    public init(rate: Double = SourceConfiguration.defaultRate) {
        self.rate = rate
    }
}
