#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Fits offset and correction matrix to readings that should all have one
/// magnitude, choosing the richest model the samples can support.
///
/// Steps: algebraic sphere fit for a rough centre → direction spread
/// (`FitConditioning`) → the richest model with enough samples and spread →
/// `EllipsoidFit` (algebraic start, Levenberg–Marquardt refinement) → scale
/// (determinant 1, or the expected magnitude) → checks: plausible magnitude,
/// condition number, fit error. A model whose fit fails falls back to the
/// next simpler one.
public struct CalibrationFitter: Sendable {
    public var settings: CalibrationFitSettings

    public init(settings: CalibrationFitSettings) {
        self.settings = settings
    }

    /// Fits `points` (raw readings in sensor units). With `expectedMagnitude`
    /// (for example the geomagnetic model's total intensity F) the correction
    /// is scaled so corrected readings have that magnitude.
    public func fit(_ points: [Vector3], expectedMagnitude: Double? = nil) throws(CalibrationRejection) -> CalibrationFit {
        if let index = points.firstIndex(where: { !$0.isFinite }) {
            throw .nonFiniteSample(index: index)
        }
        if let f = expectedMagnitude, !(f.isFinite && settings.plausibleMagnitude.contains(f)) {
            throw .invalidExpectedMagnitude(value: f, range: settings.plausibleMagnitude, unit: settings.unit)
        }
        let fewest = settings.minimumSamples(.sphere)
        guard points.count >= fewest else { throw .tooFewSamples(count: points.count, needed: fewest) }
        guard let fitter = EllipsoidFit(points: points), let rough = fitter.algebraic(.sphere) else {
            throw .notAnEllipsoid
        }
        let conditioning = FitConditioning(directions: fitter.points.map { $0 - rough.centre })
        var problem: CalibrationRejection?
        // A richer model that fitted well but whose parameters are pinned down
        // less well than required (too little spread, or too much scatter for
        // the spread): kept in case every simpler model turns out not to fit.
        var uncertain: CalibrationFit?
        for model in CalibrationModel.richestFirst where points.count >= settings.minimumSamples(model) {
            let spread = conditioning[model], required = settings.minimumConditioning(model)
            guard spread >= required / 2 else { continue }
            guard let solution = fitter.fit(model) else {
                problem = .notAnEllipsoid
                continue
            }
            do throws(CalibrationRejection) {
                guard spread >= required else { throw .insufficientCoverage(conditioning: spread) }
                let fit = try finish(solution, points: points, expectedMagnitude: expectedMagnitude,
                                     conditioning: conditioning, allowUncertain: false)
                // A simpler model that fits far worse than the richer one is not
                // an honest fallback: the distortion it leaves out is real.
                if let richer = uncertain, fit.fitErrorPercent > 2 * richer.fitErrorPercent { return richer }
                return fit
            } catch {
                // A richer model that failed its checks may still fall back to
                // a simpler one; if all fail, the simplest one's reason is reported.
                problem = error
                if uncertain == nil, model != .sphere {
                    uncertain = try? finish(solution, points: points, expectedMagnitude: expectedMagnitude,
                                            conditioning: conditioning, allowUncertain: true)
                }
            }
        }
        // Every simpler model was tried and none fitted: the richer, less certain one is the honest answer.
        if let richer = uncertain, case .poorFit = problem { return richer }
        throw problem ?? .insufficientCoverage(conditioning: conditioning.sphere)
    }

    /// Checks a solution and builds the fit. With `allowUncertain`, parameters
    /// that the spread of directions pins down less well than required are
    /// accepted, graded at best acceptable.
    private func finish(_ solution: EllipsoidFit.Solution, points: [Vector3], expectedMagnitude: Double?,
                        conditioning: FitConditioning, allowUncertain: Bool) throws(CalibrationRejection) -> CalibrationFit {
        let ellipsoid = solution.ellipsoid
        let fitted = ellipsoid.meanRadius
        let target = expectedMagnitude ?? fitted
        let matrix = ellipsoid.transform * target
        let offset = ellipsoid.centre
        let corrected = points.map { matrix * ($0 - offset) }
        let residuals = FitResiduals(corrected: corrected, target: target)
        let outlierLimit = Double(points.count) * settings.maximumOutlierPercent / 100
        guard Double(residuals.outlierCount) <= outlierLimit else {
            throw .tooManyOutliers(count: residuals.outlierCount, of: points.count, limitPercent: settings.maximumOutlierPercent)
        }
        guard residuals.fitErrorPercent <= settings.maximumFitErrorPercent else {
            throw .poorFit(fitErrorPercent: residuals.fitErrorPercent, limit: settings.maximumFitErrorPercent)
        }
        let parameterError = conditioning.predictedParameterError(
            solution.model, relativeResidual: residuals.fitErrorPercent / 100, sampleCount: points.count)
        let certain = parameterError <= settings.maximumParameterError
        guard certain || allowUncertain else {
            // Too uncertain: blame the scatter if the spread would have been
            // enough at an acceptable fit error, the spread otherwise.
            let neededFitError = residuals.fitErrorPercent * settings.maximumParameterError / parameterError
            if neededFitError >= settings.gradeThresholds.acceptableFitErrorPercent {
                throw .poorFit(fitErrorPercent: residuals.fitErrorPercent, limit: neededFitError)
            }
            throw .insufficientCoverage(conditioning: conditioning[solution.model])
        }
        guard fitted.isFinite, settings.plausibleMagnitude.contains(fitted) else {
            throw .implausibleMagnitude(value: fitted, range: settings.plausibleMagnitude, unit: settings.unit)
        }
        let condition = ellipsoid.transform.conditionNumber
        guard condition <= settings.maximumConditionNumber else {
            throw .illConditioned(conditionNumber: condition, limit: settings.maximumConditionNumber)
        }
        let coverage = SphereCoverage(directions: corrected)
        return CalibrationFit(
            offset: offset, matrix: matrix, model: solution.model, ellipsoid: ellipsoid,
            fittedMagnitude: fitted, expectedMagnitude: expectedMagnitude, residuals: residuals,
            coverage: coverage, conditioning: conditioning, sampleCount: points.count,
            iterations: solution.iterations,
            grade: min(certain ? .good : .acceptable,
                       CalibrationGrade(model: solution.model, fitErrorPercent: residuals.fitErrorPercent,
                                        coveragePercent: coverage.coveragePercent, thresholds: settings.gradeThresholds))
        )
    }
}
