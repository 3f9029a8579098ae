#if canImport(Glibc)
import Glibc
#endif

/// What a running process uses, read from /proc: the one reader of the benchmarks
/// that measure `watch` and `serve` from outside.
enum ProcessUsage {
    /// CPU time of every thread of `pid` so far, ns: the sum of the first field of
    /// `/proc/PID/task/*/schedstat` (0 when the process is gone).
    static func cpuNanoseconds(_ pid: pid_t) -> UInt64 {
        guard let dir = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(dir) }
        var total: UInt64 = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true, let text = ChildProcess.readText("/proc/\(pid)/task/\(name)/schedstat") else { continue }
            total += UInt64(text.split(separator: " ").first ?? "0") ?? 0
        }
        return total
    }

    /// Resident memory now and at its peak, kB (`VmRSS` and `VmHWM` of `/proc/PID/status`).
    static func memoryKB(_ pid: pid_t) -> (rss: Double, hwm: Double) {
        var rss = 0.0, hwm = 0.0
        for line in (ChildProcess.readText("/proc/\(pid)/status") ?? "").split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { rss = Double(line.dropFirst(6).filter(\.isNumber)) ?? 0 }
            if line.hasPrefix("VmHWM:") { hwm = Double(line.dropFirst(6).filter(\.isNumber)) ?? 0 }
        }
        return (rss, hwm)
    }
}
