#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Monotonic and wall-clock time in seconds, for poll loops' deadlines and for the
/// `time` of the objects they send. (Not `Clock`: that is the standard library's protocol.)
public enum SystemTime {
    /// CLOCK_MONOTONIC, the clock sd-bus gives its timeouts in.
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    public static func wall() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
