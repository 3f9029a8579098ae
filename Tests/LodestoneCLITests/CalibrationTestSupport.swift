import Foundation

/// Helpers for the calibration CLI tests: simulated logs, truth headings, profiles.
enum CalibrationFixtures {
    /// Hard and soft iron for the simulated sensor (soft iron symmetric: a
    /// magnetometer-only fit cannot see a rotation part).
    static let hardIron = "20,-15,35"
    static let softIron = "1.1,0.05,0,0.05,0.9,0.02,0,0.02,1.05"

    static func simulate(_ path: String, _ arguments: [String]) throws {
        let r = try CommandRunner.run(["simulate", "-o", path, "--hard-iron", hardIron, "--soft-iron", softIron] + arguments)
        guard r.status == 0 else { throw Failure("simulate failed: \(r.stderr)") }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// Columns of a CSV (plain or native: `#` lines skipped) as name → values.
    static func columns(_ path: String) throws -> [String: [Double]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var header: [String] = []
        var out: [String: [Double]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if header.isEmpty {
                header = fields
                continue
            }
            for (name, value) in zip(header, fields) { out[name, default: []].append(Double(value) ?? .nan) }
        }
        return out
    }

    /// Heading (degrees from north) of body +y under the truth quaternion [w,x,y,z] (body → ENU).
    static func heading(w: Double, x: Double, y: Double, z: Double) -> Double {
        let east = 2 * (x * y - w * z), north = 1 - 2 * (x * x + z * z)
        let d = atan2(east, north) * 180 / .pi
        return d < 0 ? d + 360 : d
    }

    /// RMS heading error of `replay` output against the truth columns of
    /// `log`, over samples whose truth has not changed for `settle` seconds
    /// (the still part of each hold). Returns (RMS, count).
    static func settledHeadingError(replay: CommandRunner.Result, log: String, settle: Double = 2) throws -> (rms: Double, count: Int) {
        let c = try columns(log)
        guard let t = c["time"], let w = c["truth_w"], let x = c["truth_x"], let y = c["truth_y"], let z = c["truth_z"] else {
            throw Failure("\(log) has no truth columns")
        }
        var settledSince: [Int64: (Double, Bool)] = [:]
        var lastChange = t[0]
        for i in t.indices {
            if i > 0, abs(w[i] - w[i - 1]) + abs(x[i] - x[i - 1]) + abs(y[i] - y[i - 1]) + abs(z[i] - z[i - 1]) > 1e-9 {
                lastChange = t[i]
            }
            settledSince[key(t[i])] = (heading(w: w[i], x: x[i], y: y[i], z: z[i]), t[i] - lastChange >= settle)
        }
        var sum = 0.0, n = 0
        for o in replay.objects {
            guard let ts = o["timestamp"] as? Double, let h = o["magneticHeading"] as? Double,
                  let (truth, settled) = settledSince[key(ts)], settled else { continue }
            let e = (h - truth + 540).truncatingRemainder(dividingBy: 360) - 180
            sum += e * e
            n += 1
        }
        return (n > 0 ? (sum / Double(n)).squareRoot() : .nan, n)
    }

    private static func key(_ t: Double) -> Int64 { Int64((t * 1000).rounded()) }

    /// The JSON object of a profile file.
    static func profile(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let o = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Failure("\(path) is not a JSON object") }
        return o
    }

    /// A native log with its metadata's device replaced by `device` (a JSON object text).
    static func withDevice(_ source: String, _ device: String, to path: String) throws {
        var lines = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > 1, lines[0].hasPrefix("# lodestone-log"),
              var meta = try JSONSerialization.jsonObject(with: Data(lines[1].dropFirst(2).utf8)) as? [String: Any] else {
            throw Failure("\(source) is not a native log")
        }
        meta["device"] = try JSONSerialization.jsonObject(with: Data(device.utf8))
        lines[1] = "# " + String(decoding: try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]), as: UTF8.self)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
