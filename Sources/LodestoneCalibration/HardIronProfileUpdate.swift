import LodestoneCore

extension CalibrationProfile {
    /// This magnetometer profile with the offset of `update` (from
    /// `HardIronTracker`), and a note of the change in `quality.update`.
    ///
    /// The matrix, model, `expectedMagnitude`, `dip` and `created` stay: they
    /// are the original calibration's. The fit figures become the update's
    /// (fit error, residual, fitted magnitude, coverage, samples, outliers), and
    /// the grade is the lower of the original grade and the one those figures
    /// earn: the profile is as good as its weaker part. `time` is an ISO 8601
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
        p.quality.grade = min(quality.grade, CalibrationGrade(model: quality.model, fitErrorPercent: fit.fitErrorPercent,
                                                              coveragePercent: fit.coveragePercent))
        p.quality.update = Update(method: Update.hardIronTracking, time: time, previousOffset: [old.x, old.y, old.z],
                                  previousFitErrorPercent: fit.previousFitErrorPercent)
        return p
    }
}
