import LodestoneCore

extension CalibrationProfile {
    /// This magnetometer profile with the offset of `update` (from
    /// `HardIronTracker`), and a note of the change in `quality.update`.
    ///
    /// The matrix, model, `expectedMagnitude`, `dip` and `created` stay: they
    /// are the original calibration's. The fit figures become the update's
    /// (fit error, residual, fitted magnitude, coverage, samples, outliers). The
    /// grade is the lower of the original grade and the one the update's fit
    /// error earns: the profile is as good as its weaker part. The coverage the
    /// grade table asks of a full fit (≥ 50 %, ≥ 75 %) does not apply to an
    /// offset-only refit, whose coverage (≥ 40 %) and precision (≤ 0.5 % of the
    /// field) the tracker checked by its own rules. `time` is an ISO 8601
    /// date-time (UTC).
    public func applying(_ update: HardIronUpdate, time: String) -> CalibrationProfile {
        var p = self
        let fit = update.proposal
        let old = parameters.offset
        p.parameters.offset = update.calibration.hardIron
        p.quality.fitErrorPercent = fit.fitErrorPercent
        p.quality.residualRMS = fit.residualRMS
        p.quality.fittedMagnitude = update.fittedMagnitude
        p.quality.coveragePercent = fit.coveragePercent
        p.quality.sampleCount = fit.sampleCount
        p.quality.outlierCount = fit.outlierCount
        let byFitError = CalibrationGrade(model: quality.model, fitErrorPercent: fit.fitErrorPercent, coveragePercent: 100)
        p.quality.grade = min(quality.grade, byFitError)
        p.quality.update = Update(method: Update.hardIronTracking, time: time, previousOffset: [old.x, old.y, old.z],
                                  previousFitErrorPercent: fit.previousFitErrorPercent)
        return p
    }
}
