#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs
import LodestoneSession
import LodestoneSimulation

/// `lodestone evaluate`: heading error against a ground-truth attitude, BROAD's way.
enum EvaluateCommand: Command {
    static let name = "evaluate"
    static let summary = "Measure heading error against ground-truth attitude columns (BROAD's metric)."
    static let usage = "evaluate FILE... [options]"
    static let discussion = """
        Each FILE is a log (plain CSV or native) with extra columns truth_w,truth_x,
        truth_y,truth_z: the true attitude, body → ENU, north = magnetic north, as
        [w,x,y,z]; rows with a NaN truth are skipped. An optional 0/1 column 'movement'
        selects the samples that are scored (all samples when absent). 'lodestone simulate
        --truth' writes these columns.

        The metric is BROAD's (Laidig et al., Data 2021): the earth-frame error
        quaternion q_err = q_est ⊗ q_ref⁻¹, the heading error 2·atan(|z/w|), which does
        not depend on the forward axis, and the inclination (tilt) error
        2·acos(√(w² + z²)). Printed per file: both RMSEs over the scored samples; the
        share of them whose accuracy is invalid (−1: the heading must not be used); and,
        among the valid ones, the share whose error lies within ±headingAccuracy (an
        honest accuracy, about 1σ, covers 55–85 %) and the share beyond 3 × headingAccuracy
        (it should be at most 1 %).

        --forward AXIS scores the heading of that body axis instead: the difference
        between the delivered magneticHeading and the truth's heading of the axis. Samples
        where the true axis is within 10° of vertical (its heading undefined) are not
        scored. --heading-filter DEG scores what an app that set that headingFilter holds:
        at each sample, the last heading delivered (default 0: every sample's heading).
        tools/broad-to-csv.py converts BROAD's HDF5 trials to this format.
        """
    static let options: [CommandLineOption] = HeadingFlags.pipeline.filter { $0.name != "auto-calibrate" } + [
        .flag("json", "Print one JSON object per file, then one for the mean."),
        .refused("auto-calibrate", "evaluate measures a fixed calibration and never rewrites profiles; replay --auto-calibrate follows the hard iron"),
    ]

    struct Result {
        var file: String
        var score = HeadingScore()
    }

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let files = try arguments.positionals(required: 1, optional: .max - 1, "FILE")
        var settings = try HeadingFlags.configuration(arguments).session
        if arguments.string("heading-filter") == nil { settings.headingFilter = 0 }
        let forward = arguments.string("forward") != nil ? settings.estimator.forwardAxis : nil
        var results: [Result] = []
        for file in files {
            results.append(try evaluate(file, settings: settings, forward: forward))
        }
        if arguments.flag("json") {
            printJSON(results)
        } else {
            printTable(results)
        }
        return .success
    }

    static func mean(_ results: [Result], _ value: (HeadingScore) -> Double) -> Double {
        results.map { value($0.score) }.reduce(0, +) / Double(results.count)
    }

    static func printJSON(_ results: [Result]) {
        let j = JSONLineBuilder()
        for r in results {
            let s = r.score
            j.beginObject()
            j.string("file", r.file)
            j.integer("scored", s.scored)
            j.number("headingRMSE", s.rmse, decimals: 3)
            j.number("inclinationRMSE", s.inclinationRMSE, decimals: 3)
            j.number("accuracyCoverage", s.coverage, decimals: 4)
            j.integer("invalid", s.invalid)
            j.number("validCoverage", s.validCoverage, decimals: 4)
            j.number("beyondThreeAccuracy", s.beyondThreeShare, decimals: 4)
            j.endObject()
        }
        j.beginObject()
        j.string("file", "mean")
        j.number("headingRMSE", mean(results, \.rmse), decimals: 3)
        j.number("inclinationRMSE", mean(results, \.inclinationRMSE), decimals: 3)
        j.number("accuracyCoverage", mean(results, \.coverage), decimals: 4)
        j.number("validCoverage", mean(results, \.validCoverage), decimals: 4)
        j.number("beyondThreeAccuracy", mean(results, \.beyondThreeShare), decimals: 4)
        j.endObject()
        print(j.text, terminator: "")
    }

    static func printTable(_ results: [Result]) {
        let width = max(12, results.map { basename($0.file).count }.max() ?? 0) + 2
        print("file".padded(to: width)
              + "scored   heading RMSE  incl. RMSE  invalid  of valid: within ±acc  beyond 3×acc")
        func row(_ name: String, _ scored: String, _ v: (rmse: Double, inclination: Double, invalid: Double,
                                                           within: Double, beyond: Double)) {
            print(name.padded(to: width) + scored.padded(to: 9)
                  + (fixed(v.rmse, 2) + "°").padded(to: 14)
                  + (fixed(v.inclination, 2) + "°").padded(to: 12)
                  + (fixed(v.invalid * 100, 1) + "%").padded(to: 19)
                  + (fixed(v.within * 100, 1) + "%").padded(to: 14)
                  + fixed(v.beyond * 100, 1) + "%")
        }
        for r in results {
            let s = r.score
            row(basename(r.file), String(s.scored), (s.rmse, s.inclinationRMSE, s.invalidShare, s.validCoverage, s.beyondThreeShare))
        }
        if results.count > 1 {
            row("mean", "", (mean(results, \.rmse), mean(results, \.inclinationRMSE), mean(results, \.invalidShare),
                             mean(results, \.validCoverage), mean(results, \.beyondThreeShare)))
        }
    }

    /// Scores one file; the calibration is chosen per file (`--calibration`, or
    /// the profiles matching the file's device).
    static func evaluate(_ file: String, settings: HeadingSession.Settings, forward: ForwardAxis?) throws -> Result {
        let truthColumns = ["truth_w", "truth_x", "truth_y", "truth_z"]
        var reader = try LogReader(path: file, options: .init(extraColumns: truthColumns))
        let hasMovement = reader.columns.contains("movement")
        if hasMovement {
            reader = try LogReader(path: file, options: .init(extraColumns: truthColumns + ["movement"]))
        }
        let source = ReplaySessionSource(reader: reader, path: file)
        var session = try HeadingSession.open(settings, for: source)
        session.start(wallClockStart: source.startWallClock)
        let verticalLimit = sin(80 * Angle.radiansPerDegree)
        var held: Heading?
        var result = Result(file: file)
        while let sample = try reader.nextSample() {
            if let delivered = session.process(sample) { held = delivered }
            if session.hasEvents { _ = session.takeEvents() }
            guard let heading = held else { continue }
            let e = reader.extraValues
            guard e[0].isFinite, e[1].isFinite, e[2].isFinite, e[3].isFinite else { continue }
            if hasMovement, e[4] == 0 { continue }
            let truth = Quaternion(w: e[0], x: e[1], y: e[2], z: e[3]).normalized
            let error = HeadingScore.earthError(estimate: heading.attitude, truth: truth)
            var headingError = HeadingScore.headingError(error)
            if let forward {
                let axis = truth.rotate(forward.vector)
                guard abs(axis.z) < verticalLimit else { continue }
                headingError = abs(Angle.difference(from: truth.heading(of: forward.vector), to: heading.magneticHeading))
            }
            result.score.add(headingError: headingError, inclinationError: HeadingScore.inclinationError(error),
                             accuracy: heading.headingAccuracy)
        }
        return result
    }

    static func basename(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func fixed(_ v: Double, _ d: Int) -> String {
        let j = JSONLineBuilder()
        j.appendNumber(v, decimals: d)
        return j.text
    }
}
