#if canImport(Glibc)
import Glibc
#endif

enum WallClock {
    /// Now, as Unix seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
