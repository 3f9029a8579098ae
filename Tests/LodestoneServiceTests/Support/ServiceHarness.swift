import Foundation
import LodestoneCore
import LodestoneLogs
import LodestoneTestSupport

/// The built `lodestone` executable beside the test bundle.
enum Lodestone {
    /// `$LODESTONE_EXECUTABLE` (e.g. a release build, to measure it), else the build beside the tests.
    static let executable: String = {
        if let e = ProcessInfo.processInfo.environment["LODESTONE_EXECUTABLE"], !e.isEmpty { return e }
        var candidates: [String] = []
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var dir = bundleDir
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("lodestone").path)
            dir.deleteLastPathComponent()
        }
        for c in ["debug", "release"] { candidates.append(SharedData.packageRoot.appendingPathComponent(".build/\(c)/lodestone").path) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    /// Runs `lodestone ARGUMENTS` to its end: the exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let p = Process(), out = Pipe(), err = Pipe()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static func available(_ tool: String) -> Bool {
        ["/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    /// Whether private network namespaces can be made (root, util-linux, iproute2).
    static let networkNamespaceProblem: String? = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["unshare", "--net", "sh", "-c", "ip link set lo up"]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return "cannot run unshare: \(error)" }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? nil : "cannot make a private network namespace (needs root, util-linux unshare and iproute2)"
    }()
}

/// A scratch directory, removed when dropped.
final class ScratchDirectory: @unchecked Sendable {
    let path: String

    init() {
        // Short: Unix socket paths must stay under 108 bytes.
        path = "/tmp/ls-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    func read(_ name: String) -> String {
        (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
    }
}

/// A running `lodestone serve` (or a script that runs it), with stderr in a file.
final class ServiceProcess: @unchecked Sendable {
    let process = Process()
    let stderrPath: String

    init(_ arguments: [String], scratch: ScratchDirectory, environment: [String: String] = [:], wrapper: [String]? = nil,
         name: String = "serve") throws {
        stderrPath = scratch.file("\(name).stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        if let wrapper {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper
        } else {
            process.executableURL = URL(fileURLWithPath: Lodestone.executable)
            process.arguments = ["serve"] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func signal(_ s: Int32) { kill(pid, s) }

    /// Stops the service (SIGSTOP) and returns once it has stopped: kill(2) returns
    /// before the process does, and what a test does next must find it stopped.
    func pause(timeout: Double = 5) {
        kill(pid, SIGSTOP)
        let deadline = Deadline(timeout)
        while !deadline.hasPassed {
            // /proc/PID/stat: "pid (comm) S ...", the state after the last ')'.
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "T" { return }
            usleep(1_000)
        }
    }

    /// Waits for the exit; nil when it did not exit in time (it is then killed).
    func waitExit(timeout: Double = 10) -> Int32? {
        let deadline = Deadline(timeout)
        while process.isRunning, !deadline.hasPassed { usleep(10_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Waits until `path` is a socket that accepts connections.
    static func waitForSocket(_ path: String, timeout: Double = 10) -> Bool {
        let deadline = Deadline(timeout)
        while !deadline.hasPassed {
            if let c = try? ProtocolClient(path: path, connectTimeout: 0) {
                c.close()
                return true
            }
            usleep(20_000)
        }
        return false
    }
}

/// A protocol client on the Unix socket, reading JSON lines with timeouts.
final class ProtocolClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private(set) var fd: Int32 = -1
    private var buffer: [UInt8] = []
    /// Every line read, in order.
    private(set) var lines: [String] = []

    init(path: String, connectTimeout: Double = 5) throws {
        let deadline = Deadline(connectTimeout)
        while true {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if rc == 0 {
                fd = s
                return
            }
            Glibc.close(s)
            guard !deadline.hasPassed else { throw Failure(description: "cannot connect to \(path): \(String(cString: strerror(errno)))") }
            usleep(20_000)
        }
    }

    /// A client on a connected socket (a TCP connection).
    init(connected fd: Int32) {
        self.fd = fd
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// The next line, or nil at end of stream or after `timeout` seconds.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = Deadline(timeout)
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(0...nl)
                lines.append(line)
                return line
            }
            let left = deadline.remaining
            guard left > 0, fd >= 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// The next JSON object (a line that is not JSON is a test failure reported by the caller).
    func readObject(timeout: Double = 5) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return Self.object(line) ?? ["class": "NOT-JSON", "line": line]
    }

    /// Reads until an object matches, or nil after `timeout` seconds.
    func read(until match: ([String: Any]) -> Bool, timeout: Double = 5) -> [String: Any]? {
        let deadline = Deadline(timeout)
        while !deadline.hasPassed {
            guard let o = readObject(timeout: deadline.remaining) else { return nil }
            if match(o) { return o }
        }
        return nil
    }

    func read(class name: String, timeout: Double = 5) -> [String: Any]? {
        read(until: { $0["class"] as? String == name }, timeout: timeout)
    }

    /// Every object read within `seconds`.
    func collect(for seconds: Double) -> [[String: Any]] {
        let deadline = Deadline(seconds)
        var out: [[String: Any]] = []
        while !deadline.hasPassed, let o = readObject(timeout: deadline.remaining) { out.append(o) }
        return out
    }

    /// Objects until the end of the stream (or `timeout`).
    func readToEnd(timeout: Double = 10) -> [[String: Any]] {
        var out: [[String: Any]] = []
        let deadline = Deadline(timeout)
        while !deadline.hasPassed, let o = readObject(timeout: deadline.remaining) { out.append(o) }
        return out
    }

    static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

/// Logs with known truth for the service tests.
enum TestLogs {
    static let header = "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z"

    /// The body-frame field of a flat board whose forward (+y) axis points `heading` degrees
    /// east of magnetic north: 20 µT horizontal, 40 µT down.
    static func field(heading: Double) -> (Double, Double, Double) {
        let r = heading * .pi / 180
        return (-20 * sin(r), 20 * cos(r), -40)
    }

    /// A flat board turning at `rate` °/s from `start`, `seconds` long at `hz`; `hardIron`
    /// (µT) is added to every magnetometer reading, `accelerometerBias` (m/s²) to every
    /// accelerometer reading.
    static func spin(_ path: String, start: Double = 0, rate: Double, seconds: Double, hz: Double = 100,
                     hardIron: (Double, Double, Double) = (0, 0, 0), accelerometerBias: (Double, Double, Double) = (0, 0, 0)) {
        var text = header + "\n"
        let n = Int(seconds * hz)
        text.reserveCapacity(n * 48)
        for i in 0...n {
            let t = Double(i) / hz
            let (x, y, z) = field(heading: start + rate * t)
            let b = accelerometerBias
            text += "\(t),\(b.0),\(b.1),\(9.81 + b.2),\(x + hardIron.0),\(y + hardIron.1),\(z + hardIron.2)\n"
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// A board standing still on its bottom edge, its back (−z) facing magnetic north: the
    /// top edge (+y) points at the sky and has no heading. `seconds` long at `hz`.
    static func upright(_ path: String, seconds: Double, hz: Double = 100) {
        let rows = (0...Int(seconds * hz)).map { "\(Double($0) / hz),0,9.81,0,0,-40,-20" }
        _ = FileManager.default.createFile(atPath: path, contents: Data(([header] + rows).joined(separator: "\n").utf8 + [10]))
    }

    /// `HEADING` objects among `objects`.
    static func headings(_ objects: [[String: Any]]) -> [[String: Any]] {
        objects.filter { $0["class"] as? String == "HEADING" }
    }
}

extension Dictionary where Key == String, Value == Any {
    func double(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    func string(_ key: String) -> String? { self[key] as? String }
    var className: String? { self["class"] as? String }
}

/// Signed shortest difference b − a in degrees.
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (b - a).truncatingRemainder(dividingBy: 360)
    if d >= 180 { d -= 360 }
    if d < -180 { d += 360 }
    return d
}

/// The resident set size of a process in kB (VmRSS), or nil.
func residentKB(_ pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Double(line.dropFirst(6).filter(\.isNumber))
    }
    return nil
}

/// The pid of the process whose command line contains every one of `parts` (e.g. a service
/// started inside a namespace by a wrapper), or nil.
func findProcess(containing parts: [String]) -> Int32? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    for e in entries {
        guard let pid = Int32(e), pid != getpid(),
              let data = FileManager.default.contents(atPath: "/proc/\(e)/cmdline") else { continue }
        let args = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if args.first.map({ $0.hasSuffix("/lodestone") || $0.hasSuffix("/lodestone-serve") }) == true,
           parts.allSatisfy(args.contains) { return pid }
    }
    return nil
}
