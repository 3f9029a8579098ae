import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs
import LodestoneSimulation

/// `lodestone simulate`: write a synthetic log with known truth.
enum SimulateCommand: Command {
    static let name = "simulate"
    static let summary = "Write a synthetic sensor log with known truth (for tests, demos and benchmarks)."
    static let usage = "simulate -o FILE [options]  |  simulate --battery DIR [--cases NAMES]"
    static let discussion = """
        Scenarios:
          demo         a minute of holds, turns and sway
          holds        eight still headings at --tilt
          spin         continuous yaw at --turn-rate from the start
          tumble       sway through many attitudes (for calibration); --period
          turn         a level turn at --turn-rate (°/s): 10 s still, a 2 s ramp, the turn,
                       10 s still; --duration is the whole length (default 322 s: 300 s of turn)
          full-tumble  hand tumbling through every orientation, 60–100 °/s, with the board
                       moved a few cm and turned about the grip (default 600 s)
          drive        a car: parked, 10–30 m/s (--speed-range) with curves at 0.1–0.3 g
                       lateral, braking and accelerating, --stops at lights (default 1), road
                       vibration, a few degrees of body roll and pitch (default 600 s)
          boat         a boat at 3 m/s rolling ±20°, pitching ±8°, heaving ±1 m, slow yaw and
                       course changes, sensor 4 m above the roll axis (default 600 s)
          walk         walking with the board held in front: steps at 1.9/s, arm sway,
                       corners, --stops at crossings (default 2) (default 600 s)
        full-tumble, drive, boat and walk are drawn from --seed.

        Sensors (--noise typical, the default): gyroscope 0.015 °/s/√Hz white noise, a
        0.0005 °/s/√s bias walk and the Earth's rate; accelerometer 400 µg/√Hz; magnetometer
        0.5 µT per sample. Values are rounded to 0.001 µT, 0.0001 m/s² and 0.00001 rad/s.
        --noise none keeps the rounding and the Earth's rate (signal, not noise); --noise K
        multiplies the three white noises by K (the bias walk stays). The gyroscope reads
        the exact body rate at each sample's instant. --mag-rate samples the magnetometer on
        its own clock; each sample carries its latest reading. --speed adds speed (m/s) and
        track (degrees from true north) columns as a position source reports them: 1 Hz,
        0.2 s late, 0.1 m/s noise, held between updates (--speed-rate, --speed-latency).
        --temperature adds the gyroscope's temperature, as most IMUs report it.

        --truth adds truth_w,truth_x,truth_y,truth_z (the true attitude, sensor → ENU, north
        = magnetic north) and movement (0 for the first 10 s of turn, full-tumble, drive, boat
        and walk, while filters settle; 1 after), the columns 'lodestone evaluate' scores.

        --battery DIR writes every case of the test suite's scenario battery (level turns at
        0.05–100 °/s and 25–1000 Hz, a 20 Hz magnetometer held against 200 Hz, tumbles, drives
        with and without speed, a boat, walks, gyro biases up to 1 °/s) as DIR/NAME.lslog with
        truth, and the calibration profile its user would have as DIR/NAME.profile.json.
        Prints what it wrote.
        """
    static let options: [CommandLineOption] = [
        .value("output", "FILE", short: "o", "Where to write the log ('-' for standard output)."),
        .value("scenario", "NAME", "demo (default), holds, spin, tumble, turn, full-tumble, drive, boat or walk."),
        .value("duration", "S", "Length in seconds (default 60 for spin and tumble, 322 for turn, 600 for the others)."),
        .value("rate", "HZ", "IMU (accelerometer and gyroscope) sample rate (default 50)."),
        .value("mag-rate", "HZ", "Magnetometer rate, held between its samples (default: the IMU rate)."),
        .value("tilt", "DEG", "Tilt of the holds, spin and turn scenarios (default 0; 90 stands the board upright, its back level: score it with --forward -z)."),
        .value("turn-rate", "DEG/S", "Yaw rate of spin (default 30) and turn (default 1); positive is clockwise."),
        .value("spin-rate", "DEG/S", "Same as --turn-rate."),
        .value("period", "S", "Period of the tumble's slowest swing (default: a third of the duration)."),
        .value("speed-range", "LOW,HIGH", "Cruising speeds of drive, m/s (default 10,30)."),
        .value("stops", "N", "Stops at lights (drive, default 1) or crossings (walk, default 2)."),
        .value("lever-arm", "X,Y,Z", "Sensor offset from the point the carrier turns about, m, body frame."),
        .value("noise", "LEVEL", "none, typical (default), or a multiple of typical such as 3."),
        .value("gyro-bias", "X,Y,Z", "Constant gyroscope bias, °/s (default 0,0,0)."),
        .value("bias-walk", "DEG/S/√S", "Gyroscope bias random walk (default 0.0005 with typical noise)."),
        .value("gyro-scale", "X,Y,Z", "Gyroscope scale errors, fractions (0.01 reads 1 % high)."),
        .value("accel-bias", "X,Y,Z", "Accelerometer bias, m/s² (default 0,0,0): an accelerometer left uncalibrated."),
        .value("accel-scale", "X,Y,Z", "Accelerometer scale errors, fractions (0.01 reads 1 % high)."),
        .value("gyro-range", "DEG/S", "Gyroscope full scale: readings beyond it are held at it, as a part's are (default: none)."),
        .value("gyro-warmup", "X,Y,Z,TAU", "The gyroscope's bias moves by X,Y,Z °/s after switch-on, approaching it with time constant TAU s, as a part warming up by 10 K does (default: none)."),
        .flag("temperature", "With --gyro: include the gyroscope's temperature column, °C (25 at switch-on, warming 10 K with --gyro-warmup, in steps of 1/340 K)."),
        .value("hard-iron", "X,Y,Z", "Hard-iron offset to add, µT."),
        .value("soft-iron", "A,B,C,D,E,F,G,H,I", "Soft-iron distortion matrix, row-major."),
        .value("hard-iron-step", "T,X,Y,Z", "From time T (s) on, the hard iron is X,Y,Z µT (a part magnetised, a battery swapped)."),
        .repeatableValue("magnet", "START,END,X,Y,Z[,FADE[,RISE]]", "A magnet carried with the board from START to END (s), adding X,Y,Z µT, then fading over FADE s (default 0: gone at once); growing over RISE s from START (default 0: there at once), as a hard iron drifts while the board warms. May be given more than once."),
        .repeatableValue("room-field", "START,END,E,N,U[,FADE[,RISE]]", "A field fixed in the room from START to END (s), adding E,N,U µT (east, north, up) to the earth's: a motor switched on beside the board; then fading over FADE s (default 0), as when the board is carried away from it; growing over RISE s from START (default 0). May be given more than once."),
        .value("field", "UT,DIP", "Field strength in µT and dip in degrees (default 50,65)."),
        .value("latitude", "DEG", "Latitude, for the Earth's rate the gyroscope senses (default 50)."),
        .value("declination", "DEG", "Declination, for the track column (default 0)."),
        .value("seed", "N", "Seed of the noise and of the drawn scenarios (default 1)."),
        .value("format", "FORMAT", "native (default) or csv."),
        .flag("gyro", "Include gyroscope columns."),
        .flag("speed", "Include speed and track columns from a simulated position source."),
        .value("speed-rate", "HZ", "Update rate of the speed and track (default 1)."),
        .value("speed-latency", "S", "How late speed and track arrive (default 0.2)."),
        .flag("truth", "Add the truth attitude and movement columns."),
        .value("battery", "DIR", "Write every battery case into DIR (see above)."),
        .value("cases", "NAMES", "With --battery: only these cases, comma-separated."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        if let directory = arguments.string("battery") {
            let used = options.map(\.name).filter { $0 != "battery" && $0 != "cases" }
                .filter { arguments.string($0) != nil || arguments.flag($0) }
            guard used.isEmpty else {
                throw UsageError("--battery writes the battery's own cases; --\(used[0]) does not apply (use --cases to choose some)")
            }
            for report in try BatteryExport.run(directory: directory, only: arguments.string("cases")) {
                print("lodestone: " + report.text)
            }
            return .success
        }
        guard arguments.string("cases") == nil else { throw UsageError("--cases needs --battery DIR") }
        guard let output = arguments.string("output") else { throw UsageError("missing -o FILE (or --battery DIR)") }
        let plan = try SimulationPlan(arguments)
        let native: Bool
        switch arguments.string("format") ?? "native" {
        case "native": native = true
        case "csv": native = false
        case let other: throw UsageError("unknown --format '\(other)'; use native or csv")
        }
        let gyro = arguments.flag("gyro")
        let log = SimulatedLog(gyroscope: gyro, truth: arguments.flag("truth"), native: native, seed: plan.seed)
        let toStandardOutput = output == "-"
        let report = try log.write(plan.recording(includesGyroscope: gyro), to: toStandardOutput ? "/dev/stdout" : output)
        // The report goes where it does not mix with the log.
        if toStandardOutput {
            Console.note("lodestone: " + report.text)
        } else {
            print("lodestone: " + report.text)
        }
        return .success
    }
}
