import LodestoneCommandLine
import LodestoneCore
import LodestoneSimulation

/// What `lodestone simulate` is asked for: a scenario, the sensors that ride
/// it, the place, the rate and the seed, checked option by option.
struct SimulationPlan {
    var scenarioName: String
    var scenario: Scenario
    var sensors: SensorSuite
    var environment: SimulatedEnvironment
    var rate: Double
    var seed: UInt64

    static let scenarioNames = ["demo", "holds", "spin", "tumble", "turn", "full-tumble", "drive", "boat", "walk"]

    /// Options that shape only some scenarios; any other use is refused.
    static let scenarioOptions: [String: Set<String>] = [
        "tilt": ["holds", "spin", "turn"],
        "turn-rate": ["spin", "turn"],
        "spin-rate": ["spin", "turn"],
        "period": ["tumble"],
        "duration": ["spin", "tumble", "turn", "full-tumble", "drive", "boat", "walk"],
        "speed-range": ["drive"],
        "stops": ["drive", "walk"],
        "lever-arm": ["turn", "full-tumble", "drive", "boat"],
    ]

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        scenarioName = arguments.string("scenario") ?? "demo"
        guard Self.scenarioNames.contains(scenarioName) else {
            throw UsageError("unknown --scenario '\(scenarioName)'; use \(Self.scenarioNames.joined(separator: ", "))")
        }
        for (option, scenarios) in Self.scenarioOptions.sorted(by: { $0.key < $1.key })
        where arguments.string(option) != nil && !scenarios.contains(scenarioName) {
            throw UsageError("--\(option) does not apply to --scenario \(scenarioName); it shapes \(scenarios.sorted().joined(separator: ", "))")
        }
        rate = try arguments.double("rate", in: 0.1...100_000) ?? 50
        seed = UInt64(try arguments.integer("seed", minimum: 0) ?? 1)
        scenario = try Self.scenario(scenarioName, arguments, seed: seed)
        sensors = try Self.sensors(arguments, scenario: scenarioName)
        environment = try Self.environment(arguments)
    }

    private static func scenario(_ name: String, _ arguments: CommandLineArguments, seed: UInt64) throws(UsageError) -> Scenario {
        let duration = try arguments.double("duration", in: 0.001...1e7)
        let tilt = try arguments.double("tilt", in: -90...90) ?? 0
        var turnRate = try arguments.double("turn-rate")
        if turnRate == nil { turnRate = try arguments.double("spin-rate") }
        let leverArm = try numbers(arguments, "lever-arm", count: 3).map { Vector3($0[0], $0[1], $0[2]) }
        let stops = try arguments.integer("stops", minimum: 0)
        switch name {
        case "demo": return MotionProfile.demo.scenario(name: name)
        case "holds": return MotionProfile.holds(tilt: tilt).scenario(name: name)
        case "spin": return MotionProfile.spin(rate: turnRate ?? 30, tilt: tilt, duration: duration ?? 60).scenario(name: name)
        case "tumble":
            return MotionProfile.tumble(duration: duration ?? 60, period: try arguments.double("period", in: 0.1...1e7))
                .scenario(name: name)
        case "turn":
            var s = LevelTurnSettings(rate: turnRate ?? 1, pitch: tilt)
            if let duration {
                guard duration >= 30 else { throw UsageError("--duration of a turn must be at least 30 s (10 s holds at each end)") }
                s.turnDuration = duration - s.holdBefore - s.holdAfter - s.ramp
            }
            if let leverArm { s.leverArm = leverArm }
            return .levelTurn(s)
        case "full-tumble":
            var s = TumbleSettings(duration: duration ?? 600, seed: seed)
            if let leverArm { s.leverArm = leverArm }
            return .tumble(s)
        case "drive":
            var s = DriveSettings(duration: duration ?? 600, seed: seed)
            if let v = try numbers(arguments, "speed-range", count: 2) {
                guard v[0] >= 1, v[1] >= v[0], v[1] <= 90 else {
                    throw UsageError("--speed-range needs LOW,HIGH in m/s with 1 ≤ LOW ≤ HIGH ≤ 90, got \(v[0]),\(v[1])")
                }
                s.speeds = v[0]...v[1]
            }
            if let stops { s.stops = stops }
            if let leverArm { s.leverArm = leverArm }
            guard s.duration >= 2 * s.parked + 60 else { throw UsageError("--duration of a drive must be at least 80 s") }
            return .drive(s)
        case "boat":
            var s = BoatSettings(duration: duration ?? 600, seed: seed)
            if let leverArm { s.leverArm = leverArm }
            return .boat(s)
        default:
            var s = WalkSettings(duration: duration ?? 600, seed: seed)
            if let stops { s.stops = stops }
            guard s.duration >= 2 * s.standing + 30 else { throw UsageError("--duration of a walk must be at least 50 s") }
            return .walk(s)
        }
    }

    private static func sensors(_ arguments: CommandLineArguments, scenario: String) throws(UsageError) -> SensorSuite {
        var sensors: SensorSuite
        switch arguments.string("noise") ?? "typical" {
        case "typical": sensors = .typical
        case "none": sensors = .noiseFree
        case let other:
            guard let times = Double(other), times.isFinite, times > 0, times <= 1000 else {
                throw UsageError("unknown --noise '\(other)'; use none, typical, or a multiple of typical such as 3")
            }
            sensors = .typical
            sensors.gyroscope.noiseDensity *= times
            sensors.accelerometer.noiseDensity *= times
            sensors.magnetometer.noise *= times
        }
        if let v = try numbers(arguments, "gyro-bias", count: 3) {
            sensors.gyroscope.bias = Vector3(v[0], v[1], v[2]) * Angle.radiansPerDegree
        }
        if let w = try arguments.double("bias-walk", in: 0...10) { sensors.gyroscope.biasRandomWalk = w * Angle.radiansPerDegree }
        if let v = try numbers(arguments, "gyro-scale", count: 3) { sensors.gyroscope.scaleError = Vector3(v[0], v[1], v[2]) }
        if let v = try numbers(arguments, "accel-bias", count: 3) { sensors.accelerometer.bias = Vector3(v[0], v[1], v[2]) }
        if let v = try numbers(arguments, "accel-scale", count: 3) { sensors.accelerometer.scaleError = Vector3(v[0], v[1], v[2]) }
        if let r = try arguments.double("gyro-range", in: 1...100_000) { sensors.gyroscope.range = r * Angle.radiansPerDegree }
        if let v = try numbers(arguments, "gyro-warmup", count: 4) {
            guard v[3] > 0 else { throw UsageError("--gyro-warmup's time constant must be positive, got \(v[3])") }
            sensors.gyroscope.warmUp = .init(drift: Vector3(v[0], v[1], v[2]) * Angle.radiansPerDegree, timeConstant: v[3])
        }
        if arguments.flag("temperature") {
            guard arguments.flag("gyro") else { throw UsageError("--temperature is the gyroscope's: add --gyro") }
            sensors.gyroscope.thermometer = .init()
        }
        if let v = try numbers(arguments, "hard-iron", count: 3) { sensors.magnetometer.hardIron = Vector3(v[0], v[1], v[2]) }
        if let v = try numbers(arguments, "soft-iron", count: 9) {
            sensors.magnetometer.softIron = Matrix3(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8])
            guard sensors.magnetometer.softIron.inverse != nil else { throw UsageError("--soft-iron matrix is singular") }
        }
        if let v = try numbers(arguments, "hard-iron-step", count: 4) {
            sensors.magnetometer.carriedFields.append(
                .init(start: v[0], field: Vector3(v[1], v[2], v[3]) - sensors.magnetometer.hardIron))
        }
        sensors.magnetometer.carriedFields += try windows(arguments, "magnet")
        sensors.magnetometer.roomFields += try windows(arguments, "room-field")
        sensors.magnetometer.rate = try arguments.double("mag-rate", in: 0.1...100_000)
        if arguments.flag("speed") {
            var speed = GroundSpeedModel.typical
            if let r = try arguments.double("speed-rate", in: 0.01...1000) { speed.rate = r }
            if let l = try arguments.double("speed-latency", in: 0...10) { speed.latency = l }
            if arguments.string("noise") == "none" { speed.speedNoise = 0 }
            sensors.groundSpeed = speed
        } else if arguments.string("speed-rate") != nil || arguments.string("speed-latency") != nil {
            throw UsageError("--speed-rate and --speed-latency shape the speed columns; add --speed")
        }
        return sensors
    }

    private static func environment(_ arguments: CommandLineArguments) throws(UsageError) -> SimulatedEnvironment {
        var environment = SimulatedEnvironment()
        if let v = try numbers(arguments, "field", count: 2) {
            guard v[0] > 0, (-90...90).contains(v[1]) else {
                throw UsageError("--field needs a strength > 0 µT and a dip of −90–90°, got \(v[0]),\(v[1])")
            }
            environment.fieldStrength = v[0]
            environment.dip = v[1]
        }
        if let l = try arguments.double("latitude", in: -90...90) { environment.latitude = l }
        if let d = try arguments.double("declination", in: -180...180) { environment.declination = d }
        return environment
    }

    /// Each START,END,X,Y,Z[,FADE] of a repeatable option: END after START, FADE ≥ 0.
    static func windows(_ arguments: CommandLineArguments, _ name: String) throws(UsageError) -> [SyntheticRecording.CarriedField] {
        var windows: [SyntheticRecording.CarriedField] = []
        for text in arguments.strings(name) {
            let count = text.split(separator: ",", omittingEmptySubsequences: false).count
            guard (5...7).contains(count) else {
                throw UsageError("--\(name) needs 5 to 7 comma-separated numbers (START,END,X,Y,Z[,FADE[,RISE]]), got '\(text)'")
            }
            let v = try numbers(text, name, count: count)
            guard v[1] > v[0] else { throw UsageError("--\(name): END must be after START, got \(v[0]) and \(v[1])") }
            let fade = count >= 6 ? v[5] : 0, rise = count == 7 ? v[6] : 0
            guard fade >= 0 else { throw UsageError("--\(name): FADE must be ≥ 0 s, got \(fade)") }
            guard rise >= 0 else { throw UsageError("--\(name): RISE must be ≥ 0 s, got \(rise)") }
            windows.append(.init(start: v[0], end: v[1], field: Vector3(v[2], v[3], v[4]), fade: fade, rise: rise))
        }
        return windows
    }

    static func numbers(_ arguments: CommandLineArguments, _ name: String, count: Int) throws(UsageError) -> [Double]? {
        guard let text = arguments.string(name) else { return nil }
        return try numbers(text, name, count: count)
    }

    private static func numbers(_ text: String, _ name: String, count: Int) throws(UsageError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
        guard parts.count == count, parts.allSatisfy({ $0?.isFinite == true }) else {
            throw UsageError("--\(name) needs \(count) comma-separated numbers, got '\(text)'")
        }
        return parts.map { $0! }
    }

    func recording(includesGyroscope: Bool) -> ScenarioRecording {
        ScenarioRecording(scenario: scenario, sensors: sensors, environment: environment, rate: rate,
                          includesGyroscope: includesGyroscope, seed: seed)
    }
}
