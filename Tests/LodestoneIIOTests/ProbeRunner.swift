import Foundation
import LodestoneCore
import LodestoneIIO
import LodestoneSimulatedBoard
import LodestoneTestSupport

/// Runs `iio-probe` inside a simulated board's namespace and parses its JSON lines.
struct ProbeRun {
    struct Sample {
        var t: Double
        var wall: Double
        var m: Vector3
        var a: Vector3
        var g: Vector3?
        var rawMag: [Int64]
        var flags: [String]
    }
    var metadata: [String: Any] = [:]
    var devices: [[String: Any]] = []
    var samples: [Sample] = []
    var errors: [(text: String, transient: Bool)] = []
    var diagnostics: [String: Any] = [:]
    var summary: [String: Any] = [:]
    var exitCode: Int32 = -1
    var stderr = ""
}

enum Probe {
    /// Why namespace tests cannot run here, or nil.
    static let problem: String? = SimulatedBoard.namespaceProblem()

    /// The built `iio-probe` binary beside the test bundle.
    static var binary: String {
        var candidates: [String] = []
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent().appendingPathComponent("iio-probe").path) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("iio-probe").path)
        for c in ["debug", "release"] { candidates.append(SharedData.packageRoot.appendingPathComponent(".build/\(c)/iio-probe").path) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    static func vector(_ any: Any?) -> Vector3? {
        guard let a = any as? [Double], a.count == 3 else {
            if let n = any as? [NSNumber], n.count == 3 { return Vector3(n[0].doubleValue, n[1].doubleValue, n[2].doubleValue) }
            return nil
        }
        return Vector3(a[0], a[1], a[2])
    }

    /// Runs the probe; `during` runs on the calling thread while the probe runs.
    static func run(_ board: SimulatedBoard, backend: SimulatedBoard.Backend, arguments: [String], asNobody: Bool = false,
                    during: (() -> Void)? = nil) throws -> ProbeRun {
        let uri = backend == .ip ? "ip:127.0.0.1" : "local:"
        let prefix = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let program = prefix + [binary, "--uri", uri, "--wait", "10"] + arguments
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = board.namespaceCommand(backend: backend, program: program)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Drain stderr concurrently so a chatty child cannot block.
        let errData = ErrorBox()
        let t = Thread { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        t.start()
        during?()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !errData.done { usleep(1000) }
        var run = ProbeRun()
        run.exitCode = p.terminationStatus
        run.stderr = String(decoding: errData.data, as: UTF8.self)
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let m = obj["metadata"] as? [String: Any] { run.metadata = m; continue }
            if let d = obj["devices"] as? [[String: Any]] { run.devices = d; continue }
            if let d = obj["diagnostics"] as? [String: Any] { run.diagnostics = d; continue }
            if let d = obj["summary"] as? [String: Any] { run.summary = d; continue }
            if let e = obj["error"] as? String { run.errors.append((e, obj["transient"] as? Bool ?? false)); continue }
            guard let t = obj["t"] as? Double, let m = vector(obj["m"]), let a = vector(obj["a"]) else { continue }
            let raw = obj["raw"] as? [String: Any]
            let rm = raw?["magnetometer"] as? [String: Any]
            let rawMag = ["x", "y", "z"].compactMap { (rm?[$0] as? NSNumber)?.int64Value }
            run.samples.append(.init(t: t, wall: obj["wall"] as? Double ?? 0, m: m, a: a, g: vector(obj["g"]), rawMag: rawMag,
                                     flags: obj["flags"] as? [String] ?? []))
        }
        return run
    }
}

final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _data = Data()
    private var _done = false
    var data: Data {
        get { lock.withLock { _data } }
        set { lock.withLock { _data = newValue; _done = true } }
    }
    var done: Bool { lock.withLock { _done } }
}

/// Tilt-compensated heading (degrees, clockwise from magnetic north) of body +y.
func heading(magneticField m: Vector3, acceleration a: Vector3) -> Double {
    let up = a.normalized
    let east = m.cross(up).normalized
    let north = up.cross(east)
    let f = Vector3.unitY
    return Angle.normalized360(atan2(f.dot(east), f.dot(north)) * Angle.degreesPerRadian)
}
