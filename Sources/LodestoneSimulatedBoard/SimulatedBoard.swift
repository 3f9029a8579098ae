import Foundation
import LodestoneCore
import LodestoneIIO
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fake sysfs tree of a real board, fed from a known attitude.
///
/// The tree is written under `directory/sys` (with `bus/iio/devices` symlinks
/// into `devices/…` as on a real system) and one FIFO per buffered device under
/// `directory/dev`. Inside a private mount namespace (``namespaceCommand``) the tree
/// is bound over `/sys` and each FIFO over `/dev/iio:deviceN`. A feeder thread
/// rewrites the `*_raw` files (polled readers) and, while `buffer/enable` is 1,
/// writes scans laid out from the `scan_elements/*_en` files, as the kernel does.
public final class SimulatedBoard: @unchecked Sendable {
    public enum Backend: String, Sendable, CaseIterable { case local, ip }

    public let layout: SimulatedLayout
    public let directory: String
    /// Earth field in ENU, µT.
    public let earthField: Vector3
    /// Specific force of gravity in ENU, m/s² (up is +).
    public let gravity: Vector3
    /// Device frame → body frame rotation the board is mounted with beyond any mount matrix.
    public let boardRotation: Matrix3
    /// Peak of the triangular dither added to raw counts, in counts.
    public let noise: Double
    /// Magnetic distortion carried with the board (magnets, iron), body frame:
    /// the magnetometer reads `softIron · B + hardIron`, in µT.
    public let hardIron: Vector3
    public let softIron: Matrix3

    struct Truth {
        var history: TruthHistory
        var vanished: Set<Int>
        var rng: UInt64
        var stalledUntil: Int64 = .min
    }
    private let truth: Locked<Truth>
    private let running = Atomic<Bool>(false)
    private var thread: pthread_t?
    private var fifos: [Int: Int32] = [:]

    /// Device directories (by part index), e.g. `…/sys/devices/…/iio:device0`.
    public let deviceDirectories: [String]

    public init(layout: SimulatedLayout, directory: String? = nil, attitude: Quaternion = .identity,
                earthField: Vector3 = Vector3(0, 20, -44), gravity: Vector3 = Vector3(0, 0, 9.81),
                boardRotation: Matrix3 = .identity, noise: Double = 1, hardIron: Vector3 = .zero,
                softIron: Matrix3 = .identity, seed: UInt64 = 0x5EED) throws {
        self.layout = layout
        let dir = directory ?? (SimulatedBoard.scratchDirectory + "lodestone-sim-\(layout.id)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        self.directory = dir
        self.earthField = earthField
        self.gravity = gravity
        self.boardRotation = boardRotation
        self.noise = noise
        self.hardIron = hardIron
        self.softIron = softIron
        truth = Locked(Truth(history: TruthHistory(attitude: attitude), vanished: [], rng: seed))
        deviceDirectories = layout.parts.indices.map { i in "\(dir)/sys/devices/\(layout.parts[i].parentPath)/iio:device\(i)" }
        try writeTree()
        for i in layout.parts.indices { writeRawFiles(part: i) }
    }

    deinit { stop() }

    /// Where trees go: /dev/shm (tmpfs) when writable, so that rewriting raw files never
    /// waits for a disk busy with other work (a stalled feeder reads as a stuck sensor);
    /// else the temporary directory.
    static var scratchDirectory: String {
        access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : NSTemporaryDirectory()
    }

    // MARK: Truth

    /// Sets the attitude (body → ENU) and the body angular rate (rad/s), from now on.
    public func setAttitude(_ q: Quaternion, angularRate: Vector3 = .zero) {
        let t = Clock.nanoseconds(CLOCK_MONOTONIC)
        truth.withLock { $0.history.set(q.normalized, angularRate: angularRate, at: t) }
    }

    /// The true body-frame values the source should report now.
    public func bodyTruth() -> (magneticField: Vector3, acceleration: Vector3, angularRate: Vector3) {
        bodyTruth(at: Clock.nanoseconds(CLOCK_MONOTONIC))
    }

    /// The true body-frame values at a monotonic time (ns): a scan the feeder writes late
    /// still carries the motion of its own time, as a sensor's FIFO would.
    func bodyTruth(at time: Int64) -> (magneticField: Vector3, acceleration: Vector3, angularRate: Vector3) {
        let state = truth.withLock { $0.history.state(at: time) }
        let inv = state.attitude.conjugate
        return (inv.rotate(earthField), inv.rotate(gravity), state.angularRate)
    }

    /// Physical chip-frame value of `sensor` at a monotonic time: chip = M⁻¹ · B⁻¹ · body.
    func chipValue(_ sensor: SimulatedSensor, at time: Int64) -> Vector3 {
        let b = bodyTruth(at: time)
        let body: Vector3
        switch sensor.kind {
        case .magnetometer: body = softIron * b.magneticField + hardIron
        case .accelerometer: body = b.acceleration
        case .gyroscope: body = b.angularRate
        }
        let device = boardRotation.transposed * body
        return sensor.mountMatrix.inverse! * device
    }

    /// Raw counts for `sensor` at a monotonic time, dithered and clamped.
    func rawCounts(_ sensor: SimulatedSensor, at time: Int64) -> [Int64] {
        let chip = chipValue(sensor, at: time)
        let per = sensor.unitsPerCount
        return (0..<3).map { a in
            let d = truth.withLock { t -> Double in
                let u1 = SimulatedBoard.uniform(&t.rng), u2 = SimulatedBoard.uniform(&t.rng)
                return noise * (u1 - u2)
            }
            let v = (chip[a] / per[a] + d).rounded()
            return max(-sensor.rawLimit, min(sensor.rawLimit, Int64(v)))
        }
    }

    static func uniform(_ s: inout UInt64) -> Double {
        s &+= 0x9E3779B97F4A7C15
        var z = s
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    // MARK: Tree

    private func write(_ path: String, _ content: String) throws {
        try (content + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    private func mkdir(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    private func writeTree() throws {
        let fm = FileManager.default
        try mkdir("\(directory)/sys/bus/iio/devices")
        try mkdir("\(directory)/dev")
        try mkdir("\(directory)/tmp")
        try mkdir("\(directory)/gone")
        var triggerIndex = 0
        for (n, part) in layout.parts.enumerated() {
            let d = deviceDirectories[n]
            try mkdir(d)
            try write("\(d)/name", part.name)
            try write("\(d)/dev", "250:\(n)")
            try write("\(d)/uevent", "MAJOR=250\nMINOR=\(n)\nDEVNAME=iio:device\(n)\nDEVTYPE=iio_device")
            for (file, content) in part.files { try write("\(d)/\(file)", content) }
            for s in part.sensors {
                let t = s.kind.rawValue
                if s.sharedScale { try write("\(d)/in_\(t)_scale", s.scaleText[0]) }
                for (a, axis) in ["x", "y", "z"].enumerated() where !s.sharedScale {
                    try write("\(d)/in_\(t)_\(axis)_scale", s.scaleText[a])
                }
                if let f = s.mountMatrixFile { try write("\(d)/\(f)", IIOMountMatrix.format(s.printedMountMatrix ?? s.mountMatrix)) }
            }
            for e in part.extraChannels { try write("\(d)/in_\(e.id)_raw", String(e.raw)) }
            if part.hasBuffer {
                try mkdir("\(d)/buffer")
                try mkdir("\(d)/scan_elements")
                for (f, v) in [("enable", "0"), ("length", "2"), ("watermark", "1"), ("data_available", "0")] {
                    try write("\(d)/buffer/\(f)", v)
                }
                for s in part.sensors {
                    for (a, axis) in ["x", "y", "z"].enumerated() {
                        let base = "\(d)/scan_elements/in_\(s.kind.rawValue)_\(axis)"
                        try write(base + "_en", "0")
                        try write(base + "_index", String(s.scanIndex[a]))
                        try write(base + "_type", s.scanType.description)
                    }
                }
                for e in part.extraChannels {
                    try write("\(d)/scan_elements/in_\(e.id)_en", "0")
                    try write("\(d)/scan_elements/in_\(e.id)_index", String(e.scanIndex))
                    try write("\(d)/scan_elements/in_\(e.id)_type", e.scanType.description)
                }
                if let ts = part.timestampIndex {
                    try write("\(d)/scan_elements/in_timestamp_en", "0")
                    try write("\(d)/scan_elements/in_timestamp_index", String(ts))
                    try write("\(d)/scan_elements/in_timestamp_type", "le:s64/64>>0")
                    try write("\(d)/current_timestamp_clock", "realtime")
                }
                if part.usesTrigger {
                    try mkdir("\(d)/trigger")
                    try write("\(d)/trigger/current_trigger", "")
                }
                let fifo = "\(directory)/dev/iio:device\(n)"
                guard mkfifo(fifo, 0o600) == 0 else { throw SimulatedBoardError("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
            }
            try fm.createSymbolicLink(atPath: "\(directory)/sys/bus/iio/devices/iio:device\(n)",
                                      withDestinationPath: "../../../devices/\(part.parentPath)/iio:device\(n)")
            if let trig = part.ownTrigger {
                let parent = "\(directory)/sys/devices/\(part.parentPath)"
                try mkdir("\(parent)/trigger\(triggerIndex)")
                try write("\(parent)/trigger\(triggerIndex)/name", trig)
                try fm.createSymbolicLink(atPath: "\(directory)/sys/bus/iio/devices/trigger\(triggerIndex)",
                                          withDestinationPath: "../../../devices/\(part.parentPath)/trigger\(triggerIndex)")
                triggerIndex += 1
            }
        }
        for t in layout.standaloneTriggers {
            let d = "\(directory)/sys/devices/trigger\(triggerIndex)"
            try mkdir(d)
            try write("\(d)/name", t.name)
            try write("\(d)/sampling_frequency", t.samplingFrequency)
            try fm.createSymbolicLink(atPath: "\(directory)/sys/bus/iio/devices/trigger\(triggerIndex)",
                                      withDestinationPath: "../../../devices/trigger\(triggerIndex)")
            triggerIndex += 1
        }
    }

    /// Writes fresh `*_raw` files for a part (atomically, so readers never see half a file).
    private func writeRawFiles(part n: Int) {
        let part = layout.parts[n]
        let d = deviceDirectories[n]
        let t = Clock.nanoseconds(CLOCK_MONOTONIC)
        for s in part.sensors {
            let raw = rawCounts(s, at: t)
            for (a, axis) in ["x", "y", "z"].enumerated() {
                let tmp = "\(directory)/tmp/raw-\(n)-\(s.kind.rawValue)-\(axis)"
                try? write(tmp, String(raw[a]))
                rename(tmp, "\(d)/in_\(s.kind.rawValue)_\(axis)_raw")
            }
        }
    }

    private func readFile(_ path: String) -> String? {
        guard let s = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return String(IIOText.trimmed(s))
    }

    // MARK: Faults

    /// Makes a part disappear (as on unplug: its directory and bus link go) or come back.
    public func setVanished(_ vanished: Bool, part n: Int) {
        let link = "\(directory)/sys/bus/iio/devices/iio:device\(n)"
        let gone = "\(directory)/gone/iio:device\(n)"
        truth.withLock { t in
            if vanished, !t.vanished.contains(n) {
                t.vanished.insert(n)
                unlink(link)
                rename(deviceDirectories[n], gone)
            } else if !vanished, t.vanished.contains(n) {
                t.vanished.remove(n)
                rename(gone, deviceDirectories[n])
                symlink("../../../devices/\(layout.parts[n].parentPath)/iio:device\(n)", link)
            }
        }
    }

    /// Holds the feeder back for a while, as a busy machine may: the scans due meanwhile are
    /// written when it resumes, each with its own time's values.
    public func stallFeeder(seconds: Double) {
        let until = Clock.nanoseconds(CLOCK_MONOTONIC) + Int64(seconds * 1e9)
        truth.withLock { $0.stalledUntil = until }
    }

    // MARK: Feeder

    /// Starts the feeder thread.
    public func start() {
        guard !running.exchange(true, ordering: .relaxed) else { return }
        for (n, p) in layout.parts.enumerated() where p.hasBuffer {
            fifos[n] = open("\(directory)/dev/iio:device\(n)", O_RDWR | O_NONBLOCK | O_CLOEXEC)
        }
        let box = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        if pthread_create(&tid, nil, { arg in
            let board = Unmanaged<SimulatedBoard>.fromOpaque(arg!).takeRetainedValue()
            board.feed()
            return nil
        }, box) == 0 {
            thread = tid
        } else {
            Unmanaged<SimulatedBoard>.fromOpaque(box).release()
            running.store(false, ordering: .relaxed)
        }
    }

    /// Stops the feeder and closes the FIFOs.
    public func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        if let t = thread { pthread_join(t, nil) }
        thread = nil
        for (_, fd) in fifos where fd >= 0 { close(fd) }
        fifos = [:]
    }

    /// Deletes the tree.
    public func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct FeedState {
        var enabled = false
        var layout: IIOScanLayout?
        var slots: [(offset: Int, type: IIOScanType, source: Int, axis: Int)] = []
        var timestampSlot: (offset: Int, type: IIOScanType)?
        var periodNs: Int64 = 20_000_000
        var nextDue: Int64 = 0
        var nextRawWrite: Int64 = 0
        var nextCheck: Int64 = 0
    }

    private func rate(part n: Int) -> Double {
        let part = layout.parts[n]
        let d = deviceDirectories[n]
        if part.usesTrigger, let trig = readFile("\(d)/trigger/current_trigger"), !trig.isEmpty,
           let t = layout.standaloneTriggers.first(where: { $0.name == trig }) {
            _ = t
            let idx = layout.parts.compactMap(\.ownTrigger).count + (layout.standaloneTriggers.firstIndex { $0.name == trig } ?? 0)
            if let v = readFile("\(directory)/sys/devices/trigger\(idx)/sampling_frequency").flatMap(IIOText.double) { return v }
        }
        for f in part.rateFiles { if let v = readFile("\(d)/\(f)").flatMap(IIOText.double), v > 0 { return v } }
        return 50
    }

    private func feed() {
        var states = Array(repeating: FeedState(), count: layout.parts.count)
        var scratch = [UInt8](repeating: 0, count: 256)
        let realtimeOffset = Clock.offsetToRealtime(CLOCK_MONOTONIC)
        while running.load(ordering: .relaxed) {
            let t = Clock.nanoseconds(CLOCK_MONOTONIC)
            let stalledUntil = truth.withLock { $0.stalledUntil }
            if t < stalledUntil {
                Clock.sleep(untilMonotonic: min(stalledUntil, t + 20_000_000))
                continue
            }
            let vanished = truth.withLock { $0.vanished }
            for n in layout.parts.indices where !vanished.contains(n) {
                let part = layout.parts[n]
                let d = deviceDirectories[n]
                if t >= states[n].nextCheck {
                    states[n].nextCheck = t + 5_000_000
                    let en = part.hasBuffer && readFile("\(d)/buffer/enable") == "1"
                    let triggered = !part.usesTrigger || !(readFile("\(d)/trigger/current_trigger") ?? "").isEmpty
                    if en && triggered && !states[n].enabled {
                        states[n] = configureScan(part: n)
                        states[n].periodNs = Int64(1e9 / rate(part: n))
                        states[n].nextDue = t
                        drain(n)
                    } else if !(en && triggered) && states[n].enabled {
                        states[n].enabled = false
                    }
                    if !states[n].enabled, t >= states[n].nextRawWrite {
                        writeRawFiles(part: n)
                        states[n].nextRawWrite = t + 20_000_000
                    }
                }
                if states[n].enabled, t - states[n].nextDue > 100 * states[n].periodNs { states[n].nextDue = t }
            }
            // Every scan due by now, in the order of their due times across parts (as data-ready
            // interrupts would come), each stamped with its due time and carrying the motion of
            // that time, so a late wake-up neither bunches timestamps nor dates new motion back.
            while let n = earliestDue(states, by: t, skipping: vanished), let fd = fifos[n] {
                writeScan(part: n, &states[n], to: fd, stampOffset: realtimeOffset, scratch: &scratch)
            }
            // Sleep until the next scan or check is due (at most 20 ms, so stop() is prompt).
            var wake = Clock.nanoseconds(CLOCK_MONOTONIC) + 20_000_000
            for n in layout.parts.indices where !vanished.contains(n) {
                wake = min(wake, states[n].nextCheck)
                if states[n].enabled { wake = min(wake, states[n].nextDue) }
            }
            Clock.sleep(untilMonotonic: wake)
        }
    }

    /// The enabled part whose next scan is due first, if one is due by `time`.
    private func earliestDue(_ states: [FeedState], by time: Int64, skipping vanished: Set<Int>) -> Int? {
        layout.parts.indices
            .filter { states[$0].enabled && fifos[$0] != nil && !vanished.contains($0) && states[$0].nextDue <= time }
            .min { states[$0].nextDue < states[$1].nextDue }
    }

    /// Writes a part's scan due next and moves its due time on by one period.
    private func writeScan(part n: Int, _ state: inout FeedState, to fd: Int32, stampOffset: Int64, scratch: inout [UInt8]) {
        guard let lay = state.layout else { state.enabled = false; return }
        let due = state.nextDue
        var raws: [[Int64]] = layout.parts[n].sensors.map { rawCounts($0, at: due) }
        raws.append(layout.parts[n].extraChannels.map(\.raw))
        state.nextDue += state.periodNs
        let size = lay.scanBytes
        if scratch.count < size { scratch = [UInt8](repeating: 0, count: size) }
        let slots = state.slots, timestampSlot = state.timestampSlot
        scratch.withUnsafeMutableBytes { buf in
            for k in 0..<size { buf[k] = 0 }
            let base = buf.baseAddress!
            for s in slots { s.type.encode(raws[s.source][s.axis], into: base + s.offset) }
            if let ts = timestampSlot { ts.type.encode(due + stampOffset, into: base + ts.offset) }
            _ = Glibc.write(fd, base, size)
        }
    }

    /// The scan layout from the `*_en` files, as the kernel computes it on enable.
    private func configureScan(part n: Int) -> FeedState {
        let part = layout.parts[n]
        let d = deviceDirectories[n] + "/scan_elements"
        var st = FeedState()
        st.enabled = true
        var enabled: [(index: Int, type: IIOScanType)] = []
        var pending: [(index: Int, type: IIOScanType, source: Int, axis: Int)] = []
        for (si, s) in part.sensors.enumerated() {
            for (a, axis) in ["x", "y", "z"].enumerated() where readFile("\(d)/in_\(s.kind.rawValue)_\(axis)_en") == "1" {
                enabled.append((s.scanIndex[a], s.scanType))
                pending.append((s.scanIndex[a], s.scanType, si, a))
            }
        }
        for (ei, e) in part.extraChannels.enumerated() where readFile("\(d)/in_\(e.id)_en") == "1" {
            enabled.append((e.scanIndex, e.scanType))
            pending.append((e.scanIndex, e.scanType, part.sensors.count, ei))
        }
        let tsType = IIOScanType(parsing: "le:s64/64>>0")!
        if let ti = part.timestampIndex, readFile("\(d)/in_timestamp_en") == "1" { enabled.append((ti, tsType)) }
        let lay = IIOScanLayout(enabled: enabled)
        st.layout = lay
        st.slots = pending.compactMap { p in lay.offset(ofIndex: p.index).map { ($0, p.type, p.source, p.axis) } }
        if let ti = part.timestampIndex, let off = lay.offset(ofIndex: ti), readFile("\(d)/in_timestamp_en") == "1" { st.timestampSlot = (off, tsType) }
        return st
    }

    /// Discards stale scans (the kernel resets its FIFO when a buffer is enabled).
    private func drain(_ n: Int) {
        guard let fd = fifos[n] else { return }
        var junk = [UInt8](repeating: 0, count: 4096)
        while junk.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, 4096) }) > 0 {}
    }

    // MARK: Namespace

    /// A command that runs `program` with this board bound over `/sys` and `/dev/iio:deviceN`
    /// in private mount, network and PID namespaces (root only). With `.ip`, `iiod` serves the
    /// tree on that namespace's loopback and dies with the program.
    public func namespaceCommand(backend: Backend, program: [String]) -> [String] {
        var script = "set -e\nhere=$(pwd)\n"
        if backend == .ip { script += "ip link set lo up\n" }
        script += "mount --bind '\(directory)/sys' /sys\n"
        // The tree may live under /dev/shm, hidden once /dev is replaced: work from inside it.
        script += "cd '\(directory)/dev'\n"
        script += "mount -t tmpfs -o mode=755 tmpfs /dev\n"
        script += "mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5; mknod -m 666 /dev/urandom c 1 9; mknod -m 666 /dev/random c 1 8\n"
        for (n, p) in layout.parts.enumerated() where p.hasBuffer {
            script += "touch /dev/iio:device\(n); mount --bind ./iio:device\(n) /dev/iio:device\(n)\n"
        }
        if backend == .ip {
            // Start iiod and wait (up to 5 s) until it accepts connections, so clients need no retry loop.
            script += "iiod > ../iiod.log 2>&1 &\n"
            script += "i=0; until bash -c ': </dev/tcp/127.0.0.1/30431' 2>/dev/null; do i=$((i+1)); [ $i -ge 250 ] && break; sleep 0.02; done\n"
        }
        script += "cd \"$here\"\n"
        script += "exec \"$@\"\n"
        return ["unshare", "--mount", "--net", "--pid", "--fork", "--kill-child", "sh", "-c", script, "lodestone-sim"] + program
    }

    /// Nil when private namespaces can be made here (with iiod, when `ip` is wanted), else why not.
    public static func namespaceProblem(ip: Bool = true) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["unshare", "--mount", "--net", "--pid", "--fork", "sh", "-c", "mount -t tmpfs tmpfs /sys" + (ip ? " && ip link set lo up && command -v iiod >/dev/null" : "")]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return "cannot run unshare: \(error)" }
        p.waitUntilExit()
        if p.terminationStatus == 0 { return nil }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return "cannot make a private mount/network namespace\(ip ? " with iiod" : "") (needs root, util-linux unshare\(ip ? ", iproute2 and iiod" : "")): \(text.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
}

public struct SimulatedBoardError: Error, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
}
