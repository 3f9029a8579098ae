#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// `lodestone evaluate`: heading error against a ground-truth attitude, BROAD's way.
enum EvaluateCommand: Command {
    static let name = "evaluate"
    static let summary = "Measure heading error against ground-truth attitude columns (BROAD's metric)."
    static let usage = "evaluate FILE... [options]"
    static let discussion = """
        Each FILE is a log (plain CSV or native) with extra columns truth_w,truth_x,
        truth_y,truth_z: the true attitude, body → ENU, north = magnetic north, as
        [w,x,y,z]; rows with a NaN truth are skipped. An optional 0/1 column 'movement'
        selects the samples that are scored (all samples when absent).

        The metric is BROAD's (Laidig et al., Data 2021): the earth-frame error
        quaternion q_err = q_est ⊗ q_ref⁻¹ and the heading error 2·atan(|z/w|), which
        does not depend on the forward axis. Printed per file: RMSE over the scored
        samples, and the fraction of them whose error lies within ±headingAccuracy
        (coverage; an honest accuracy covers about two thirds or more). Samples whose
        accuracy is invalid (−1: the heading must not be used) count as not covered; the
        share of them, and the coverage among valid samples, are printed too.
        tools/broad-to-csv.py converts BROAD's HDF5 trials to this format.
        """
    static let options: [CommandLineOption] = HeadingFlags.pipeline.filter { o in !refusals.contains { $0.0 == o.name } } + [
        .flag("json", "Print one JSON object per file, then one for the mean."),
    ] + refusals.map { .refused($0.0, $0.1) }

    /// Pipeline options that cannot change what evaluate measures.
    static let refusals = [
        ("heading-filter", "evaluate scores every sample; a headingFilter would only leave out the samples it holds back"),
        ("forward", "BROAD's heading error compares whole attitudes, which does not depend on the forward axis"),
        ("auto-calibrate", "evaluate measures a fixed calibration and never rewrites profiles; replay --auto-calibrate follows the hard iron"),
    ]

    struct Result {
        var file: String
        var scored = 0
        var sumSquares = 0.0
        var covered = 0
        var invalid = 0
        var rmse: Double { scored > 0 ? (sumSquares / Double(scored)).squareRoot() : .nan }
        var coverage: Double { scored > 0 ? Double(covered) / Double(scored) : .nan }
        /// Coverage among the samples whose accuracy was valid (not −1).
        var validCoverage: Double { scored > invalid ? Double(covered) / Double(scored - invalid) : .nan }
        var invalidShare: Double { scored > 0 ? Double(invalid) / Double(scored) : .nan }
    }

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let files = try arguments.positionals(required: 1, optional: .max - 1, "FILE")
        var settings = try HeadingFlags.configuration(arguments).session
        settings.headingFilter = 0
        var results: [Result] = []
        for file in files {
            results.append(try evaluate(file, settings: settings))
        }
        let mean = results.map(\.rmse).reduce(0, +) / Double(results.count)
        let meanCoverage = results.map(\.coverage).reduce(0, +) / Double(results.count)
        if arguments.flag("json") {
            let j = JSONLineBuilder()
            for r in results {
                j.beginObject()
                j.string("file", r.file)
                j.integer("scored", r.scored)
                j.number("headingRMSE", r.rmse, decimals: 3)
                j.number("accuracyCoverage", r.coverage, decimals: 4)
                j.integer("invalid", r.invalid)
                j.number("validCoverage", r.validCoverage, decimals: 4)
                j.endObject()
            }
            j.beginObject()
            j.string("file", "mean")
            j.number("headingRMSE", mean, decimals: 3)
            j.number("accuracyCoverage", meanCoverage, decimals: 4)
            j.endObject()
            print(j.text, terminator: "")
        } else {
            let width = max(12, results.map { basename($0.file).count }.max() ?? 0) + 2
            print("file".padded(to: width) + "scored   heading RMSE   within ±accuracy   invalid   within, of valid")
            for r in results {
                print(basename(r.file).padded(to: width)
                      + String(r.scored).padded(to: 9)
                      + (fixed(r.rmse, 2) + "°").padded(to: 15)
                      + (fixed(r.coverage * 100, 1) + "%").padded(to: 19)
                      + (fixed(r.invalidShare * 100, 1) + "%").padded(to: 10)
                      + fixed(r.validCoverage * 100, 1) + "%")
            }
            if results.count > 1 {
                print("mean".padded(to: width + 9)
                      + (fixed(mean, 2) + "°").padded(to: 15)
                      + fixed(meanCoverage * 100, 1) + "%")
            }
        }
        return .success
    }

    /// Scores one file; the calibration is chosen per file (`--calibration`, or
    /// the profiles matching the file's device).
    static func evaluate(_ file: String, settings: HeadingSession.Settings) throws -> Result {
        let truthColumns = ["truth_w", "truth_x", "truth_y", "truth_z"]
        var reader = try LogReader(path: file, options: .init(extraColumns: truthColumns))
        let hasMovement = reader.columns.contains("movement")
        if hasMovement {
            reader = try LogReader(path: file, options: .init(extraColumns: truthColumns + ["movement"]))
        }
        let source = ReplaySessionSource(reader: reader, path: file)
        var session = try HeadingSession.open(settings, for: source)
        session.start(wallClockStart: source.startWallClock)
        var result = Result(file: file)
        while let sample = try reader.nextSample() {
            guard let estimate = session.estimate(sample) else { continue }
            if session.hasEvents { _ = session.takeEvents() }
            let e = reader.extraValues
            guard e[0].isFinite, e[1].isFinite, e[2].isFinite, e[3].isFinite else { continue }
            if hasMovement, e[4] == 0 { continue }
            let truth = Quaternion(w: e[0], x: e[1], y: e[2], z: e[3]).normalized
            let error = headingError(estimate: session.pipeline.estimator.attitude, truth: truth)
            result.scored += 1
            result.sumSquares += error * error
            let accuracy = session.pipeline.estimator.accuracy(for: estimate)
            if accuracy < 0 {
                result.invalid += 1
            } else if error <= accuracy {
                result.covered += 1
            }
        }
        return result
    }

    /// BROAD's heading error in degrees: the heading part of q_est ⊗ q_ref⁻¹.
    static func headingError(estimate: Quaternion, truth: Quaternion) -> Double {
        let e = estimate * truth.conjugate
        return 2 * atan(abs(e.z / e.w)) * Angle.degreesPerRadian
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
