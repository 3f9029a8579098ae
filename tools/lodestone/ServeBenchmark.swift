#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore
import LodestoneLogs
import LodestoneSession
import LodestoneSimulatedBoard
import LodestoneSimulation
import Synchronization

/// `lodestone bench --only serve`: the daemon's cost and latency, measured from outside.
///
/// Starts `lodestone serve` replaying, in a loop and paced in real time like a sensor, a
/// generated 100 Hz log with gyroscope of a board swaying continuously (±60° of heading,
/// 10 s period, typical noise), so every window sees the same motion. Then measures
/// with 0, 1 and 10 clients watching:
/// the daemon's CPU time (all its threads, from /proc/PID/task/*/schedstat) over a
/// window, as a share of one core; its resident memory; and the latency from the
/// moment the daemon had the sample (the HEADING's `time`) to the moment a client
/// read the line (both CLOCK_REALTIME on this machine). Then the time from `?WATCH`
/// to the first HEADING after the sensors were released.
enum ServeBenchmark {
    struct Window {
        var cpuPercent: Double
        var rssKB: Double
        var hwmKB: Double
        var latencies: [Double]
        var lines: Int
        var seconds: Double
    }

    static func run(seconds: Double) throws {
        try runReplay(seconds: seconds)
        if let problem = SimulatedBoard.namespaceProblem(ip: false) {
            print("serve on a simulated IIO board: skipped (\(problem))")
        } else {
            try runBoard(seconds: seconds)
        }
    }

    /// The daemon replaying the generated log in a loop, paced in real time.
    static func runReplay(seconds: Double) throws {
        let socket = "/tmp/lodestone-bench-\(getpid()).sock"
        let log = "/tmp/lodestone-bench-serve-\(getpid()).csv"
        try generate(log)
        defer { unlink(log) }
        let daemon = try spawnDaemon(["serve", "--source", "replay:\(log)", "--loop", "--socket", socket])
        defer {
            kill(daemon, SIGTERM)
            var status: Int32 = 0
            waitpid(daemon, &status, 0)
            unlink(socket)
        }
        guard waitForSocket(socket, seconds: 10) else {
            throw CommandFailure(.failure, "the benchmark daemon did not come up on \(socket)")
        }
        print("serve: replaying a 100 Hz log with gyroscope (sway), paced in real time")
        try measureDaemon(daemon, socket: socket, label: "serve", seconds: seconds)
    }

    /// The daemon reading a simulated LIS3MDL + LIS3DH board (buffered, 100 Hz) in a private
    /// namespace, as on a real board; the board sways like the replayed log. Root only. The
    /// board's feeder runs in this process and is not counted.
    static func runBoard(seconds: Double) throws {
        let board = try SimulatedBoard(layout: .lis3mdlLIS3DH, attitude: BoardAttitude(heading: 100, pitch: 10).quaternion)
        board.start()
        let sway = BoardSway(board: board)
        sway.start()
        defer {
            sway.stop()
            board.remove()
        }
        let socket = "/tmp/lodestone-bench-iio-\(getpid()).sock"
        let exe = try ChildProcess.selfPath()
        let program = [exe, "serve", "--source", "iio", "--mode", "buffered", "--rate", "100", "--socket", socket]
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let outer = try ChildProcess.spawn(board.namespaceCommand(backend: .local, program: program), stdout: null, stderr: null)
        var daemon: pid_t?
        defer {
            if let daemon { kill(daemon, SIGTERM) } else { kill(outer, SIGKILL) }
            var status: Int32 = 0
            waitpid(outer, &status, 0)
            unlink(socket)
        }
        // The process `unshare --fork` starts, once it has become the daemon (lodestone execs lodestone-serve).
        for _ in 0..<1000 where daemon == nil {
            if let c = ChildProcess.firstChild(of: outer), let path = ChildProcess.executable(of: c),
               path.hasSuffix("/lodestone-serve") || path == exe, waitForSocket(socket, seconds: 0.05) {
                daemon = c
            }
            usleep(10_000)
        }
        guard let daemon else { throw CommandFailure(.failure, "lodestone serve did not come up on the simulated board") }
        print("serve on a simulated IIO board: lis3mdl + lis3dh, --mode buffered --rate 100, swaying")
        try measureDaemon(daemon, socket: socket, label: "serve iio", seconds: seconds)
    }

    /// Memory after start-up, CPU idle, then CPU, memory and latency with 1 and 10 clients at
    /// headingFilter 0 and 1, then the time from ?WATCH to the first HEADING after a release.
    static func measureDaemon(_ daemon: pid_t, socket: String, label name: String, seconds: Double) throws {
        let startup = ProcessUsage.memoryKB(daemon)
        print(BenchCommand.pad("\(name): RSS after start-up (idle)") + BenchCommand.format(startup.rss / 1024, 2) + " MB")
        usleep(1_000_000)
        let idle = measure(daemon, clients: [], seconds: min(seconds, 10))
        print(BenchCommand.pad("\(name): idle (no client), CPU") + BenchCommand.format(idle.cpuPercent, 3) + " % of one core")
        for (count, filter) in [(1, 0.0), (10, 0.0), (1, 1.0), (10, 1.0)] {
            var clients: [BenchClient] = []
            for _ in 0..<count {
                guard let c = BenchClient(path: socket) else { throw CommandFailure(.failure, "cannot connect to \(socket)") }
                c.send("?WATCH={\"enable\":true,\"headingFilter\":\(filter)};\n")
                clients.append(c)
            }
            for c in clients { try c.start() }
            usleep(2_000_000) // warm-up: sensors claimed, smoothing settled, buffers sized
            let w = measure(daemon, clients: clients, seconds: seconds)
            for c in clients { c.stop() }
            let label = "\(name): 100 Hz, \(count) client\(count == 1 ? "" : "s"), headingFilter \(BenchCommand.format(filter, 0))"
            let sorted = w.latencies.sorted()
            func q(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            print(BenchCommand.pad(label) + "CPU " + BenchCommand.format(w.cpuPercent, 3) + " % of one core, RSS "
                  + BenchCommand.format(w.rssKB / 1024, 2) + " MB (peak " + BenchCommand.format(w.hwmKB / 1024, 2) + " MB), "
                  + BenchCommand.format(Double(w.lines) / w.seconds / Double(count), 1) + " HEADING/s per client")
            print(BenchCommand.pad("") + "sample-to-client latency p50 " + BenchCommand.format(q(0.5) * 1e6, 0) + " µs, p99 "
                  + BenchCommand.format(q(0.99) * 1e6, 0) + " µs, max " + BenchCommand.format((sorted.last ?? .nan) * 1e6, 0)
                  + " µs (\(sorted.count) lines)")
            fflush(nil)
            usleep(1_500_000) // the clients are gone: the sensors are released
        }
        var first: [Double] = []
        for _ in 0..<10 {
            usleep(500_000)
            guard let c = BenchClient(path: socket) else { continue }
            let t0 = BenchCommand.now()
            c.send("?WATCH={\"enable\":true};\n")
            if c.waitForHeading(seconds: 5) { first.append(BenchCommand.now() - t0) }
            c.close()
        }
        first.sort()
        if !first.isEmpty {
            print(BenchCommand.pad("\(name): ?WATCH to first HEADING (released)") + "median " + BenchCommand.format(first[first.count / 2] * 1000, 2)
                  + " ms, max " + BenchCommand.format(first.last! * 1000, 2) + " ms (\(first.count) claims)")
        }
        let end = ProcessUsage.memoryKB(daemon)
        print(BenchCommand.pad("\(name): RSS at the end") + BenchCommand.format(end.rss / 1024, 2) + " MB (peak "
              + BenchCommand.format(end.hwm / 1024, 2) + " MB)")
        fflush(nil)
    }

    /// `seconds` (five minutes) at `rate` (100 Hz) of continuous sway with a gyroscope, at sensor resolution.
    static func generate(_ path: String, rate: Double = 100, seconds: Double = 300) throws {
        var recording = SyntheticRecording(
            profile: MotionProfile([.sway(center: BoardAttitude(heading: 100, pitch: 10),
                                          amplitude: BoardAttitude(heading: 60, pitch: 20, roll: 20), period: 10, duration: seconds)]),
            rate: rate, errors: .typical, includesGyroscope: true)
        let writer = try LogWriter(path: path, metadata: nil, gyroscope: true)
        while var s = recording.nextSample() {
            s.time = (s.time * 1e4).rounded() / 1e4
            try writer.write(s)
        }
        try writer.finish()
    }

    /// Measures the daemon while `clients` read, for `seconds`.
    static func measure(_ pid: pid_t, clients: [BenchClient], seconds: Double) -> Window {
        for c in clients { c.reset() }
        let cpu0 = ProcessUsage.cpuNanoseconds(pid), t0 = BenchCommand.now()
        usleep(UInt32(seconds * 1e6))
        let cpu1 = ProcessUsage.cpuNanoseconds(pid), t1 = BenchCommand.now()
        let m = ProcessUsage.memoryKB(pid)
        var latencies: [Double] = []
        var lines = 0
        for c in clients {
            let (l, n) = c.take()
            latencies += l
            lines += n
        }
        return Window(cpuPercent: Double(cpu1 - cpu0) / 1e9 / (t1 - t0) * 100, rssKB: m.rss, hwmKB: m.hwm,
                      latencies: latencies, lines: lines, seconds: t1 - t0)
    }

    static func spawnDaemon(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let args = ["/proc/self/exe"] + arguments
        var argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, environ) == 0 else {
            throw CommandFailure(.failure, "could not start lodestone serve")
        }
        return pid
    }

    static func waitForSocket(_ path: String, seconds: Double) -> Bool {
        let deadline = BenchCommand.now() + seconds
        while BenchCommand.now() < deadline {
            if let c = BenchClient(path: path) {
                c.close()
                return true
            }
            usleep(20_000)
        }
        return false
    }
}

/// A protocol client on its own thread that records, for each HEADING line, how long
/// ago (wall clock) the daemon had the sample.
final class BenchClient: @unchecked Sendable {
    // @unchecked: `fd` is written before the thread starts; results go through `state`.
    private var fd: Int32
    private struct State {
        var latencies: [Double] = []
        var lines = 0
    }
    private let state = Mutex(State())
    private let running = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            return nil
        }
    }

    func send(_ text: String) {
        var t = text
        t.withUTF8 { _ = Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func start() throws {
        running.store(true, ordering: .relaxed)
        do {
            try SessionThread.start { self.readLoop() }
        } catch {
            throw CommandFailure(.failure, "cannot start a client thread: \(error)")
        }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        let marker = Array("{\"class\":\"HEADING\",\"time\":\"".utf8)
        while running.load(ordering: .relaxed) {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            let now = wallNow()
            if n <= 0 { break }
            pending += buffer[0..<n]
            var start = 0
            var found: [Double] = []
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                let line = pending[start..<nl]
                if line.starts(with: marker), line.count > marker.count + 27 {
                    let timeBytes = line.dropFirst(marker.count).prefix(27)
                    if let t = WallClockTime.parse(String(decoding: timeBytes, as: UTF8.self)) { found.append(now - t) }
                }
                start = nl + 1
            }
            pending.removeSubrange(0..<start)
            state.withLock {
                $0.latencies += found
                $0.lines += found.count
            }
        }
        finished.store(true, ordering: .releasing)
    }

    func reset() { state.withLock { $0 = State() } }

    func take() -> ([Double], Int) { state.withLock { s in (s.latencies, s.lines) } }

    func stop() {
        running.store(false, ordering: .relaxed)
        while !finished.load(ordering: .acquiring) { usleep(1000) }
        close()
    }

    /// Waits (on this thread, without `start()`) for the first HEADING line.
    func waitForHeading(seconds: Double) -> Bool {
        let deadline = BenchCommand.now() + seconds
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var text: [UInt8] = []
        let marker = Array("\"class\":\"HEADING\"".utf8)
        while BenchCommand.now() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 10) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return false }
            text += buffer[0..<n]
            if text.count >= marker.count, (0...(text.count - marker.count)).contains(where: { text[$0..<($0 + marker.count)].elementsEqual(marker) }) {
                return true
            }
        }
        return false
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Gives up the socket without reading it (a stalled client), with a small receive buffer.
    func detach() -> Int32 {
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        defer { fd = -1 }
        return fd
    }

    private func wallNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// Turns a simulated board like the replayed log: heading 100° ± 60° over 10 s, pitch and roll ± 20°.
private final class BoardSway: @unchecked Sendable {
    // @unchecked: `board` is itself thread-safe (SimulatedBoard); the flag is atomic.
    private let board: SimulatedBoard
    private let running = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(true)

    init(board: SimulatedBoard) { self.board = board }

    func start() {
        running.store(true, ordering: .relaxed)
        finished.store(false, ordering: .relaxed)
        do {
            try SessionThread.start { self.loop() }
        } catch {
            finished.store(true, ordering: .relaxed)
        }
    }

    private func loop() {
        let t0 = BenchCommand.now()
        while running.load(ordering: .relaxed) {
            let phase = 2 * Double.pi * (BenchCommand.now() - t0) / 10
            board.setAttitude(BoardAttitude(heading: 100 + 60 * sin(phase), pitch: 10 + 20 * sin(phase * 0.7), roll: 20 * cos(phase * 1.3)).quaternion)
            usleep(10_000)
        }
        finished.store(true, ordering: .releasing)
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        while !finished.load(ordering: .acquiring) { usleep(1000) }
    }
}
