import LodestoneCore
import LodestoneIIO

/// Makes the configured source, opening it at once so that a wrong device pin
/// or a missing log is reported at start-up, not at the first sample.
public enum SessionSources {
    /// `fusion` decides whether an IIO gyroscope is read: not for the compass mode,
    /// unless one is pinned.
    public static func open(_ source: SourceConfiguration, fusion: FusionMode) throws(SessionError) -> any SessionSource {
        switch source {
        case .iio(var c):
            c.useGyroscope = fusion != .ecompass || c.gyroscopeDevice != nil
            return try IIOSessionSource(c)
        case .replay(let r): return try ReplaySessionSource(r)
        case .simulated(let s): return SimulatedSessionSource(s)
        }
    }
}
