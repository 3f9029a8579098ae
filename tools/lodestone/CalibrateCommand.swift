#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneSession

/// `lodestone calibrate`: fit a magnetometer (or accelerometer) calibration,
/// live or from a log, report how good it is, and save it as a profile.
enum CalibrateCommand: Command {
    static let name = "calibrate"
    static let summary = "Calibrate the magnetometer (or accelerometer) live or from a log, and save a profile."
    static let usage = "calibrate [--uri URI | --from LOG] [options]"
    static let discussion = """
        Live (default, local: unless --uri): turn the board slowly through every orientation
        while the terminal shows the coverage of 100 equal-area direction regions, the gaps,
        the fit error and the field strength. It stops by itself when the calibration is good:
        coverage ≥ 75 %, full model (offset + symmetric 3×3), fit error ≤ 2.5 %, and the offset
        settled (moved < 1 % of the field between two refits 0.5 s apart). Or at --timeout,
        judged as it stands; Ctrl-C aborts without saving.

        Offline (--from LOG): any log 'replay' reads (plain CSV or native; '-' = stdin).

        With --lat/--lon the correction is scaled to the model's total intensity F and the
        fitted field is compared with it; without a position the scale is normalised
        (determinant 1) and corrected readings keep the fitted magnitude.

        Grades: good (as above); acceptable (fit error ≤ 3 %, coverage ≥ 50 %, any model);
        poor. A good or acceptable profile is saved atomically to -o FILE, or to
        calibration/<driver>-<name>-<sensor>.json for a device that names itself (IIO, or a
        native log recorded from one), where replay, evaluate, watch and serve find it for
        that device. Poor profiles are saved only with --force. Implausible fits are
        rejected with the reason.

        --sensor accelerometer: offset and per-axis scales from six or more still
        positions (each face up, ~2 s each; live or from a log), scaled to standard
        gravity, or to normal gravity at --lat.

        Exit codes (the table of every command, 'lodestone --help'): 0 saved (or fitted
        from a log that names no device, without -o); 1 also when rejected or poor; 3 also
        when the profile or plot cannot be written (the report is printed first).
        """
    static let options: [CommandLineOption] = [
        .value("from", "LOG", "Calibrate from a recorded log instead of a live sensor ('-' = standard input)."),
        .value("sensor", "NAME", "magnetometer (default) or accelerometer."),
        .value("output", "FILE", short: "o", "Write the profile here (default: calibration/<device>-<sensor>.json)."),
        .value("plot", "FILE.svg", "Write an SVG report: raw and corrected samples in three planes, fitted ellipse and circle, coverage map."),
        .flag("json", "Print the result as one JSON object on standard output."),
        .value("window", "START:END", "Offline: use only samples with START ≤ time ≤ END (seconds)."),
        .value("timeout", "S", "Live: stop after this many seconds and judge what was collected (default 120)."),
        .flag("force", "Save the profile even when its grade is poor."),
        .value("http", "HOST:PORT", "Live magnetometer: show the coverage sphere filling on the live web view (loopback if no host)."),
    ] + HeadingFlags.iio + HeadingFlags.position

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let sensor = try sensorKind(arguments.string("sensor"))
        let configuration = try HeadingFlags.configuration(arguments)
        let position = configuration.session.trueNorth
        let from = arguments.string("from")
        let window = try parseWindow(arguments.string("window"))
        let timeout = try arguments.double("timeout", in: 1...86_400)
        if from != nil, HeadingFlags.iio.contains(where: { arguments.string($0.name) != nil }) {
            throw UsageError("--from reads a log; --uri, --magn, --accel, --gyro, --mode, --rate and --board-rotation are for a live sensor")
        }
        if from == nil, window != nil { throw UsageError("--window selects part of a log; use it with --from") }
        if from != nil, timeout != nil { throw UsageError("--timeout is for live calibration; a log is read to its end") }
        let http = try arguments.string("http").map { t throws(UsageError) in try CoverageView.endpoint(t) }
        if http != nil, from != nil || sensor != .magnetometer {
            throw UsageError("--http shows the coverage of a live magnetometer calibration")
        }
        let view = ProgressView()

        let outcome: CalibrationOutcome
        if let from {
            outcome = sensor == .magnetometer
                ? try OfflineCalibration.magnetometer(path: from, window: window, position: position)
                : try OfflineCalibration.accelerometer(path: from, window: window, position: position)
        } else {
            guard case .iio(let live) = configuration.source else { throw UsageError("calibrate reads IIO sensors or a log") }
            let coverage = try http.map { e in
                do { return try CoverageView(e) } catch { throw CommandFailure(.inaccessible, "--http: \(error)") }
            }
            defer { coverage?.stop() }
            outcome = sensor == .magnetometer
                ? try LiveCalibration.magnetometer(live, position: position, timeout: timeout ?? 120, view: view, coverage: coverage)
                : try LiveCalibration.accelerometer(live, position: position, timeout: timeout ?? 120, view: view)
        }

        // Save first: a plot that cannot be written must not lose the calibration.
        var (saved, note, exitCode) = save(outcome, output: arguments.string("output"), force: arguments.flag("force"))
        var plotFailure: String?
        if let plot = arguments.string("plot") {
            do {
                try writePlot(outcome, to: plot)
            } catch {
                plotFailure = error.description
                if exitCode == .success { exitCode = .inaccessible }
            }
        }
        if arguments.flag("json") {
            print(outcome.json(savedTo: saved, note: note))
        } else {
            var lines = CalibrationReport.text(outcome)
            lines += outcome.improvements.map { "  to improve: " + $0 }
            lines.append(CalibrationReport.verdictLine(outcome, saved: saved, note: note))
            if isatty(1) == 1 { lines = TextWrap.wrap(lines, width: ProgressView.width()) }
            print(lines.joined(separator: "\n"))
        }
        if let plotFailure { Console.error("--plot: \(plotFailure)") }
        return exitCode
    }

    /// Saves the profile when the verdict allows; returns where, or why not, and
    /// the exit code. A failed write is reported, not thrown, so the report (with
    /// the offset and matrix) is still printed.
    static func save(_ o: CalibrationOutcome, output: String?, force: Bool) -> (String?, String?, ExitCode) {
        if o.ending == .interrupted { return (nil, "interrupted: nothing saved", .interrupted) }
        guard let fit = o.fit else { return (nil, "nothing saved: the fit was rejected", .badInput) }
        if fit.grade == .poor && !force {
            return (nil, "not saved: a poor calibration could make headings worse (--force saves it anyway)", .badInput)
        }
        let device = o.device ?? CalibrationProfile.DeviceIdentity()
        guard let path = output ?? CalibrationProfileStore().path(for: device, sensor: o.sensor) else {
            return (nil, "not saved: the log does not say which device it came from; give -o FILE to save the profile", .success)
        }
        let profile = CalibrationProfile(sensor: o.sensor, device: device,
                                         created: WallClockTime.iso8601(unixSeconds: WallClock.now(), fractionDigits: 0), fit: fit, dip: o.dip)
        do {
            try CalibrationProfileStore.save(profile, to: path, options: writeOptions())
        } catch {
            return (nil, "NOT SAVED: \(error.description)", error.isAccessProblem ? .inaccessible : .badInput)
        }
        return (path, nil, .success)
    }

    /// Test hook: `LODESTONE_TEST_WRITE_PAUSE=S` writes profiles 16 bytes at a
    /// time with S seconds between, so a test can kill the process mid-write.
    static func writeOptions() -> AtomicFile.Options {
        guard let text = getenv("LODESTONE_TEST_WRITE_PAUSE").map({ String(cString: $0) }),
              let pause = Double(text), pause > 0, pause < 10 else { return AtomicFile.Options() }
        return AtomicFile.Options(chunkSize: 16, pauseBetweenChunks: pause)
    }

    static func writePlot(_ o: CalibrationOutcome, to path: String) throws(AtomicFileError) {
        let title = (o.sensor == .magnetometer ? "Magnetometer" : "Accelerometer") + " calibration — " + o.source
        var notes = ["Verdict: \(o.verdict.rawValue)"]
        if let r = o.rejection { notes.append("Rejected: \(r.description)") }
        if let e = o.expected {
            notes.append("Model F \(Format.fixed(e.totalIntensity, 2)) µT, inclination \(Format.fixed(e.inclination, 1))° (\(e.modelName), \(Format.fixed(e.decimalYear, 2)))")
        } else if o.sensor == .magnetometer, o.fit != nil {
            notes.append("No position: scale normalised (det 1), no model F")
        }
        if let g = o.gravity { notes.append("Gravity \(Format.fixed(g.value, 4)) m/s² (\(g.origin))") }
        if let d = o.dip { notes.append("Dip measured \(Format.fixed(d, 1))°") }
        if o.sensor == .accelerometer { notes.append("\(o.positions.count) still positions") }
        let svg = CalibrationReportSVG.render(raw: o.plotPoints, fit: o.fit, title: title, unit: o.unit, notes: notes)
        try AtomicFile.write(Array(svg.utf8), to: path)
    }

    static func sensorKind(_ text: String?) throws(UsageError) -> CalibrationProfile.SensorKind {
        switch text ?? "magnetometer" {
        case "magnetometer", "mag", "magn": return .magnetometer
        case "accelerometer", "accel", "acc": return .accelerometer
        case let other: throw UsageError("--sensor must be magnetometer or accelerometer, got '\(other)'")
        }
    }

    static func parseWindow(_ text: String?) throws(UsageError) -> ClosedRange<Double>? {
        guard let text else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let a = parts[0], let b = parts[1], a.isFinite, b.isFinite, a < b else {
            throw UsageError("--window must be START:END in seconds with START < END, got '\(text)'")
        }
        return a...b
    }
}
