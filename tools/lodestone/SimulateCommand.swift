import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs
import LodestoneSimulation

/// `lodestone simulate`: write a synthetic log with known truth.
enum SimulateCommand: Command {
    static let name = "simulate"
    static let summary = "Write a synthetic sensor log with known truth (for tests, demos and benchmarks)."
    static let usage = "simulate -o FILE [options]"
    static let discussion = """
        Scenarios: demo (a minute of holds, turns and sway), holds (eight still headings
        at --tilt), spin (continuous yaw at --spin-rate), tumble (full-sphere motion for
        calibration). Values are rounded to 0.001 µT, 0.0001 m/s² and 0.00001 rad/s, as a
        real sensor's resolution would. --truth adds the truth attitude as columns
        truth_w,truth_x,truth_y,truth_z.
        """
    static let options: [CommandLineOption] = [
        .value("output", "FILE", short: "o", "Where to write the log ('-' for standard output)."),
        .value("scenario", "NAME", "demo (default), holds, spin or tumble."),
        .value("duration", "S", "Length of spin and tumble scenarios in seconds (default 60)."),
        .value("rate", "HZ", "Sample rate (default 50)."),
        .value("tilt", "DEG", "Tilt of the holds and spin scenarios (default 0)."),
        .value("spin-rate", "DEG/S", "Yaw rate of the spin scenario (default 30)."),
        .value("period", "S", "Period of the tumble's slowest swing (default: a third of the duration)."),
        .value("noise", "LEVEL", "none, or typical (default: 0.5 µT, 0.05 m/s², 0.005 rad/s)."),
        .value("hard-iron", "X,Y,Z", "Hard-iron offset to add, µT."),
        .value("soft-iron", "A,B,C,D,E,F,G,H,I", "Soft-iron distortion matrix, row-major."),
        .value("hard-iron-step", "T,X,Y,Z", "From time T (s) on, the hard iron is X,Y,Z µT (a part magnetised, a battery swapped)."),
        .value("magnet", "START,END,X,Y,Z", "A magnet carried with the board from START to END (s), adding X,Y,Z µT."),
        .value("field", "UT,DIP", "Field strength in µT and dip in degrees (default 50,65)."),
        .value("seed", "N", "Noise seed (default 1)."),
        .value("format", "FORMAT", "native (default) or csv."),
        .flag("gyro", "Include gyroscope columns."),
        .flag("truth", "Add the truth attitude columns."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        guard let output = arguments.string("output") else { throw UsageError("missing -o FILE") }
        let rate = try arguments.double("rate", in: 0.1...100_000) ?? 50
        let duration = try arguments.double("duration", in: 0.001...1e7) ?? 60
        let tilt = try arguments.double("tilt", in: -89...89) ?? 0
        let profile: MotionProfile
        switch arguments.string("scenario") ?? "demo" {
        case "demo": profile = .demo
        case "holds": profile = .holds(tilt: tilt)
        case "spin": profile = .spin(rate: try arguments.double("spin-rate") ?? 30, tilt: tilt, duration: duration)
        case "tumble": profile = .tumble(duration: duration, period: try arguments.double("period", in: 0.1...1e7))
        case let other: throw UsageError("unknown --scenario '\(other)'; use demo, holds, spin or tumble")
        }
        var errors: SensorErrorModel
        switch arguments.string("noise") ?? "typical" {
        case "typical": errors = .typical
        case "none": errors = .noiseless
        case let other: throw UsageError("unknown --noise '\(other)'; use none or typical")
        }
        if let v = try numbers(arguments, "hard-iron", count: 3) { errors.hardIron = Vector3(v[0], v[1], v[2]) }
        if let v = try numbers(arguments, "soft-iron", count: 9) {
            errors.softIron = Matrix3(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8])
            guard errors.softIron.inverse != nil else { throw UsageError("--soft-iron matrix is singular") }
        }
        var environment = SimulatedEnvironment()
        if let v = try numbers(arguments, "field", count: 2) {
            environment.fieldStrength = v[0]
            environment.dip = v[1]
        }
        let seed = try arguments.integer("seed", minimum: 0) ?? 1
        let gyro = arguments.flag("gyro"), truth = arguments.flag("truth")
        var recording = SyntheticRecording(profile: profile, rate: rate, environment: environment, errors: errors,
                                           includesGyroscope: gyro, seed: UInt64(seed))
        if let v = try numbers(arguments, "hard-iron-step", count: 4) {
            recording.carriedFields.append(.init(start: v[0], field: Vector3(v[1], v[2], v[3]) - errors.hardIron))
        }
        if let v = try numbers(arguments, "magnet", count: 5) {
            guard v[1] > v[0] else { throw UsageError("--magnet: END must be after START, got \(v[0]) and \(v[1])") }
            recording.carriedFields.append(.init(start: v[0], end: v[1], field: Vector3(v[2], v[3], v[4])))
        }
        let metadata: LogMetadata?
        switch arguments.string("format") ?? "native" {
        case "native":
            metadata = LogMetadata(rate: rate, source: "simulation",
                                   device: .object(["kind": .string("simulated board"),
                                                    "scenario": .string(arguments.string("scenario") ?? "demo"),
                                                    "seed": .number(Double(seed))]),
                                   note: "synthetic data generated by lodestone simulate; not a real sensor")
        case "csv": metadata = nil
        case let other: throw UsageError("unknown --format '\(other)'; use native or csv")
        }
        let writer = try LogWriter(path: output == "-" ? "/dev/stdout" : output, metadata: metadata, gyroscope: gyro,
                                   extraColumns: truth ? ["truth_w", "truth_x", "truth_y", "truth_z"] : [])
        while var s = recording.nextSample() {
            s.acceleration = quantized(s.acceleration, 1e4)
            s.magneticField = quantized(s.magneticField, 1e3)
            s.angularRate = s.angularRate.map { quantized($0, 1e5) }
            s.time = (s.time * 1e6).rounded() / 1e6
            let q = recording.truth
            try writer.write(s, extras: truth ? [q.w, q.x, q.y, q.z] : [])
        }
        try writer.finish()
        return .success
    }

    private static func quantized(_ v: Vector3, _ scale: Double) -> Vector3 {
        Vector3((v.x * scale).rounded() / scale, (v.y * scale).rounded() / scale, (v.z * scale).rounded() / scale)
    }

    private static func numbers(_ arguments: CommandLineArguments, _ name: String, count: Int) throws(UsageError) -> [Double]? {
        guard let text = arguments.string(name) else { return nil }
        let parts = text.split(separator: ",").map { Double($0.trimmingSpaces) }
        guard parts.count == count, parts.allSatisfy({ $0?.isFinite == true }) else {
            throw UsageError("--\(name) needs \(count) comma-separated numbers, got '\(text)'")
        }
        return parts.map { $0! }
    }
}
