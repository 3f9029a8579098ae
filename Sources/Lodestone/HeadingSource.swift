import LodestoneCore
import LodestoneIIO
import LodestoneSession

/// Where a ``HeadingManager`` reads its samples.
public enum HeadingSource: Sendable {
    /// IIO sensors through libiio: the URI, device pins, rate and capture mode
    /// (`IIOSourceConfiguration(uri: "ip:192.168.1.20", magnetometerDevice: "lis3mdl", rate: 100)`).
    case iio(IIOSourceConfiguration)
    /// A recorded log (plain CSV or native), at `speed` log seconds per second; nil as fast as possible.
    case log(path: String, speed: Double? = nil)
    /// The simulated board: the demo motion with typical sensor noise, in real time. For demos.
    case simulated(rate: Double = SourceConfiguration.defaultRate)

    /// The session's form of this source.
    var configuration: SourceConfiguration {
        switch self {
        case .iio(let c): return .iio(c)
        case .log(let path, let speed): return .replay(ReplaySettings(path: path, speed: speed))
        case .simulated(let rate): return .simulated(SimulatedSettings(rate: rate))
        }
    }
}
