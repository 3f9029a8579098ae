#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore

/// `lodestone bench --only stalled`: what 31 clients that never read cost a healthy one.
///
/// `lodestone serve` replays a generated 1000 Hz log with gyroscope, paced in real time,
/// with `limits.clientQueueBytes` at the largest the configuration allows (64 MiB).
/// First one healthy client alone; then 31 clients watch with headingFilter 0 and never
/// read, and their queues are filled (the log replayed 20 times faster until the
/// daemon's memory holds 31 full queues); back at 1000 Hz, every line that arrives
/// drops the oldest line of 31 full queues. Reported: the share of the 1000 headings a
/// second the healthy client gets, their sample-to-client latency, the daemon's CPU
/// and memory. Issue 13's target: ≥ 99 % and p99 < 2 ms.
enum StalledClientsBenchmark {
    static let stalledClients = 31
    static let queueBytes = 64 << 20

    static func run(seconds: Double) throws {
        let id = getpid()
        let socket = "/tmp/lodestone-bench-stalled-\(id).sock"
        let log = "/tmp/lodestone-bench-stalled-\(id).csv"
        let config = "/tmp/lodestone-bench-stalled-\(id).json"
        try ServeBenchmark.generate(log, rate: 1000, seconds: 60)
        defer {
            unlink(log)
            unlink(config)
        }
        try writeConfig(config, log: log, speed: 1)
        let daemon = try ServeBenchmark.spawnDaemon(["serve", "--config", config, "--socket", socket])
        defer {
            kill(daemon, SIGTERM)
            var status: Int32 = 0
            waitpid(daemon, &status, 0)
            unlink(socket)
        }
        guard ServeBenchmark.waitForSocket(socket, seconds: 10) else {
            throw CommandFailure(.failure, "the benchmark daemon did not come up on \(socket)")
        }
        print("serve with stalled clients: a 1000 Hz log paced in real time, limits.clientQueueBytes \(queueBytes >> 20) MiB")
        guard let healthy = BenchClient(path: socket) else { throw CommandFailure(.failure, "cannot connect to \(socket)") }
        healthy.send("?WATCH={\"enable\":true,\"headingFilter\":0};\n")
        try healthy.start()
        usleep(2_000_000)
        report("alone", ServeBenchmark.measure(daemon, clients: [healthy], seconds: seconds))

        var stalled: [Int32] = []
        for _ in 0..<stalledClients { stalled.append(try stalledClient(socket)) }
        defer { for fd in stalled { close(fd) } }
        try fill(daemon, config: config, log: log)
        usleep(3_000_000) // the source is reopened at 1000 Hz
        report("with \(stalledClients) stalled, full queues", ServeBenchmark.measure(daemon, clients: [healthy], seconds: seconds))
        healthy.stop()
    }

    static func writeConfig(_ path: String, log: String, speed: Double) throws {
        let text = """
            {"source":{"type":"replay","path":"\(log)","loop":true,"speed":\(speed)},
             "limits":{"clientQueueBytes":\(queueBytes),"maxClients":64,"idleTimeout":86400}}
            """
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CommandFailure(.failure, "cannot write \(path)") }
        defer { close(fd) }
        var t = text
        t.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
    }

    /// A client that watches every heading and never reads, with a small receive buffer.
    static func stalledClient(_ socket: String) throws -> Int32 {
        guard let c = BenchClient(path: socket) else { throw CommandFailure(.failure, "cannot connect to \(socket)") }
        c.send("?WATCH={\"enable\":true,\"headingFilter\":0};\n")
        return c.detach()
    }

    /// Replays 20 times faster until the daemon holds the stalled clients' full queues, then
    /// goes back to real time (SIGHUP with the config changed).
    static func fill(_ daemon: pid_t, config: String, log: String) throws {
        try writeConfig(config, log: log, speed: 20)
        kill(daemon, SIGHUP)
        let target = Double(stalledClients * queueBytes) * 0.97 / 1024
        let t0 = BenchCommand.now()
        var last = 0.0
        while BenchCommand.now() - t0 < 600 {
            usleep(1_000_000)
            last = ProcessUsage.memoryKB(daemon).rss
            if last >= target { break }
        }
        print(BenchCommand.pad("queues filled") + BenchCommand.format(BenchCommand.now() - t0, 1) + " s, daemon RSS "
              + BenchCommand.format(last / 1024, 0) + " MB (31 full queues: " + BenchCommand.format(target / 0.97 / 1024, 0) + " MB)")
        try writeConfig(config, log: log, speed: 1)
        kill(daemon, SIGHUP)
    }

    static func report(_ label: String, _ w: ServeBenchmark.Window) {
        let sorted = w.latencies.sorted()
        func q(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        let share = Double(w.lines) / (w.seconds * 1000) * 100
        print(BenchCommand.pad("1000 Hz, healthy client, \(label)") + BenchCommand.format(share, 2) + " % of the headings, latency p50 "
              + BenchCommand.format(q(0.5) * 1e3, 3) + " ms, p99 " + BenchCommand.format(q(0.99) * 1e3, 3) + " ms, max "
              + BenchCommand.format((sorted.last ?? .nan) * 1e3, 3) + " ms; daemon CPU " + BenchCommand.format(w.cpuPercent, 1)
              + " % of one core, RSS " + BenchCommand.format(w.rssKB / 1024, 0) + " MB")
        fflush(nil)
    }
}
