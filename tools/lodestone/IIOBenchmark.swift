import Foundation
import LodestoneCore
import LodestoneIIO
import LodestoneSimulatedBoard
import LodestoneSimulation
import Synchronization

/// `lodestone bench --only iio`: the cost of `lodestone watch` on a simulated board.
///
/// A simulated LIS3MDL + LIS3DH board (the board's feeder runs in this process)
/// serves `lodestone watch --mode buffered --heading-filter 0` in a private
/// namespace. The watch process is measured from outside: CPU time from its
/// threads' /proc schedstat (ns), samples from the lines it prints, memory from
/// its /proc status. Needs root, like `simulated-board`.
enum IIOBenchmark {
    static func run(rates: [Double], seconds: Double, minutes: Double) throws {
        // Ctrl-C: stop measuring, end watch and remove the board, exit 130.
        let stop = StopSignals()
        stop.onStop {}
        func checkStop() throws {
            if stop.received != nil { throw CommandFailure(stop.exitCode, "bench iio: stopped") }
        }
        if let problem = SimulatedBoard.namespaceProblem(ip: false) {
            throw CommandFailure(.inaccessible, "bench iio: \(problem)")
        }
        let exe = try ChildProcess.selfPath()
        print("iio: lodestone watch --mode buffered --heading-filter 0 on a simulated lis3mdl-lis3dh board (NDJSON to a pipe, counted)")
        fflush(nil)
        for rate in rates {
            let run = try WatchRun(exe: exe, rate: rate, stop: stop)
            defer { run.finish() }
            _ = run.wait(2) // warm-up: open, first refills
            try checkStop()
            let a = run.snapshot()
            _ = run.wait(seconds)
            try checkStop()
            let b = run.snapshot()
            let samples = Double(b.lines - a.lines)
            let cpu = (b.cpuNs - a.cpuNs) / 1e9
            let wall = b.wall - a.wall
            print(BenchCommand.pad("iio buffered, --rate \(BenchCommand.format(rate, 0))")
                  + BenchCommand.format(samples / wall, 0) + " samples/s, "
                  + BenchCommand.format(cpu / samples * 1e6, 1) + " µs CPU/sample, "
                  + BenchCommand.format(100 * cpu / wall, 2) + "% of one core, RSS "
                  + BenchCommand.format(b.rssKB / 1024, 1) + " MB  (\(BenchCommand.format(wall, 0)) s)")
            fflush(nil)
        }
        guard minutes > 0 else { return }
        let run = try WatchRun(exe: exe, rate: 100, stop: stop)
        defer { run.finish() }
        print("iio: RSS of lodestone watch at 100 Hz over \(BenchCommand.format(minutes, 0)) min")
        fflush(nil)
        let start = run.snapshot()
        var minute = 1.0
        while minute <= minutes {
            let running = run.wait(start.wall + minute * 60 - Date().timeIntervalSince1970)
            try checkStop()
            guard running else { throw CommandFailure(.failure, "lodestone watch ended early") }
            let s = run.snapshot()
            print(BenchCommand.pad("  after \(BenchCommand.format(minute, 0)) min")
                  + "RSS " + BenchCommand.format(s.rssKB / 1024, 2) + " MB, peak " + BenchCommand.format(s.hwmKB / 1024, 2) + " MB, "
                  + "\(s.lines - start.lines) samples, CPU " + BenchCommand.format(100 * (s.cpuNs - start.cpuNs) / 1e9 / (s.wall - start.wall), 2) + "% of one core")
            fflush(nil)
            minute += 1
        }
    }
}

/// One `lodestone watch` on a simulated board, measured from outside.
private final class WatchRun {
    struct Snapshot {
        var wall: Double
        var lines: Int
        var cpuNs: Double
        var rssKB: Double
        var hwmKB: Double
    }

    let board: SimulatedBoard
    let outer: pid_t
    let inner: pid_t
    let counter: LineCounter
    let stop: StopSignals

    init(exe: String, rate: Double, stop: StopSignals) throws {
        self.stop = stop
        board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: BoardAttitude(heading: 37, pitch: 12, roll: -21).quaternion)
        board.start()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CommandFailure(.failure, "pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let argv = board.namespaceCommand(backend: .local, program: [exe, "watch", "--mode", "buffered", "--rate", String(rate), "--heading-filter", "0"])
        outer = try ChildProcess.spawn(argv, stdout: fds[1])
        close(fds[1])
        let counter = LineCounter(fd: fds[0])
        self.counter = counter
        Thread { counter.run() }.start()
        // The measured process is the one `unshare --fork` starts, once it has become lodestone.
        var found: pid_t?
        for _ in 0..<500 {
            if let c = ChildProcess.firstChild(of: outer), ChildProcess.executable(of: c) == exe { found = c; break }
            usleep(10_000)
        }
        guard let found else {
            kill(outer, SIGKILL)
            board.remove()
            throw CommandFailure(.failure, "lodestone watch did not start in the simulated board's namespace")
        }
        inner = found
    }

    /// Waits up to `seconds` (less after a stop signal); false when watch has ended.
    func wait(_ seconds: Double) -> Bool {
        let end = Date().timeIntervalSince1970 + max(0, seconds)
        while Date().timeIntervalSince1970 < end, !stop.isRequested {
            if kill(inner, 0) != 0 { return false }
            usleep(50_000)
        }
        return kill(inner, 0) == 0
    }

    func snapshot() -> Snapshot {
        let memory = ProcessUsage.memoryKB(inner)
        return Snapshot(wall: Date().timeIntervalSince1970, lines: counter.lines.load(ordering: .relaxed),
                        cpuNs: Double(ProcessUsage.cpuNanoseconds(inner)), rssKB: memory.rss, hwmKB: memory.hwm)
    }

    func finish() {
        kill(inner, SIGTERM)
        var status: Int32 = 0
        waitpid(outer, &status, 0)
        board.remove()
    }
}

/// Counts the newlines read from a pipe until it ends, then closes it.
private final class LineCounter: Sendable {
    let fd: Int32
    let lines = Atomic<Int>(0)

    init(fd: Int32) { self.fd = fd }

    func run() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            var count = 0
            for i in 0..<n where buffer[i] == 0x0A { count += 1 }
            lines.add(count, ordering: .relaxed)
        }
        close(fd)
    }
}
