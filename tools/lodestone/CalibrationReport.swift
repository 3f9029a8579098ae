import LodestoneCalibration
import LodestoneCore

/// The human-readable result of `lodestone calibrate`.
enum CalibrationReport {
    static func text(_ o: CalibrationOutcome) -> [String] {
        var lines: [String] = []
        let what = o.sensor == .magnetometer ? "Magnetometer" : "Accelerometer"
        var head = "\(what) calibration from \(o.source), \(o.samplesRead) samples"
        if let span = o.timeSpan { head += ", t = \(Format.fixed(span.lowerBound, 1))–\(Format.fixed(span.upperBound, 1)) s" }
        if let device = o.device, !device.isAnonymous { head += "; device \(device.summary)" }
        lines.append(head)
        if let ending = endingLine(o) { lines.append("  " + ending) }
        if o.sensor == .accelerometer {
            let faces = o.facesSeen.map { "\($0.name) \($0.seen ? "✓" : "·")" }.joined(separator: "  ")
            lines.append(row("positions", "\(o.positions.count) still positions in \(o.orientationCount) orientations; up: \(faces)"))
        }
        guard let fit = o.fit else {
            if let rejection = o.rejection { lines.append(row("rejected", rejection.description)) }
            return lines
        }
        let t = o.settings.gradeThresholds
        let u = o.unit
        lines.append(row("model", modelText(fit.model)))
        lines.append(row("fit error", "\(Format.fixed(fit.fitErrorPercent, 2)) %  (good ≤ \(Format.fixed(t.goodFitErrorPercent, 1)) %, acceptable ≤ \(Format.fixed(t.acceptableFitErrorPercent, 1)) %)"))
        let decimals = o.sensor == .magnetometer ? 2 : 3
        lines.append(row("residual", "\(Format.fixed(fit.residualRMS, decimals)) \(u) RMS  (largest \(Format.fixed(fit.residuals.maximumResidual, decimals)) \(u); \(fit.residuals.outlierCount) outliers left out)"))
        lines.append(row("magnitude", magnitudeText(o, fit)))
        if o.sensor == .magnetometer {
            var dip = o.dip.map { "\(Format.fixed($0, 1))° measured" } ?? "not measured (no accelerometer)"
            if let e = o.expected { dip += "; model inclination \(Format.fixed(e.inclination, 1))°" }
            lines.append(row("dip", dip))
            if let alignment = o.alignment { lines.append(row("alignment", alignmentText(alignment))) }
            var coverage = "\(Format.fixed(fit.coveragePercent, 0)) % of 100 regions  (\(fit.coverage.gaps.count) empty; good ≥ \(Format.fixed(t.goodCoveragePercent, 0)) %)"
            if let gap = fit.coverage.largestGapDirection, fit.coverage.gaps.count > 0 {
                coverage += "; largest gap: field along \(CoverageMapText.boardPart(gap))"
            }
            lines.append(row("coverage", coverage))
            lines += (CoverageMapText.rows(fit.coverage) + CoverageMapText.legend()).map { String(repeating: " ", count: 11) + $0 }
        } else {
            lines.append(row("coverage", "\(fit.coverage.filledRegions) of 100 regions hold positions (good ≥ \(Format.fixed(t.goodCoveragePercent, 0)))"))
        }
        lines.append(row("offset", "\(Format.vector(fit.offset, decimals + 1)) \(u)"))
        let m = fit.matrix
        for (i, r) in [m.row0, m.row1, m.row2].enumerated() {
            let cells = [r.x, r.y, r.z].map { pad(Format.fixed($0, 5), 9) }.joined(separator: " ")
            lines.append(row(i == 0 ? "matrix" : "", "[\(cells)]"))
        }
        return lines
    }

    static func modelText(_ model: CalibrationModel) -> String {
        switch model {
        case .full: return "full (offset + symmetric 3×3 matrix)"
        case .diagonal: return "diagonal (offset + a scale per axis); richer models need more orientations"
        case .sphere: return "sphere (offset + one scale); richer models need more orientations"
        }
    }

    /// The magnetometer's rotation onto the accelerometer's axes, or why it was left as fitted.
    static func alignmentText(_ alignment: Result<MagnetometerAlignment, MagnetometerAlignment.Refusal>) -> String {
        switch alignment {
        case .success(let a):
            return "turned \(Format.fixed(a.angle, 2))° ± \(Format.fixed(a.uncertainty, 2))° onto the accelerometer's axes "
                + "(dip spread \(Format.fixed(a.dipSpreadBefore, 2))° → \(Format.fixed(a.dipSpreadAfter, 2))° over \(a.readingsUsed) still readings)"
        case .failure(let refusal):
            return "left as fitted: \(refusal.description)"
        }
    }

    static func magnitudeText(_ o: CalibrationOutcome, _ fit: CalibrationFit) -> String {
        let u = o.unit
        var s = "\(Format.fixed(fit.fittedMagnitude, 2)) \(u) fitted"
        if let e = o.expected {
            s += "; model F \(Format.fixed(e.totalIntensity, 2)) \(u) (\(e.modelName), \(Format.fixed(e.decimalYear, 2))\(e.isExtrapolated ? ", extrapolated" : "")), ratio \(Format.fixed(fit.fittedMagnitude / e.totalIntensity, 3)); corrected readings scaled to F"
        } else if let g = o.gravity {
            s += "; gravity \(Format.fixed(g.value, 4)) \(u) (\(g.origin)), ratio \(Format.fixed(fit.fittedMagnitude / g.value, 4)); corrected readings scaled to it"
        } else {
            s += "; no position (--lat/--lon), so no model F: the scale is normalised and corrected readings keep \(Format.fixed(fit.correctedMagnitude, 2)) \(u)"
        }
        return s
    }

    /// The last line: the verdict, and what happened to the profile.
    static func verdictLine(_ o: CalibrationOutcome, saved: String?, note: String?) -> String {
        var s = "verdict: \(o.verdict.rawValue.uppercased())"
        if let saved { s += " — saved \(saved)" }
        if let note { s += " — \(note)" }
        return s
    }

    static func endingLine(_ o: CalibrationOutcome) -> String? {
        let seconds = o.seconds.map { " after \(Format.fixed($0, 1)) s" } ?? ""
        switch o.ending {
        case .endOfLog: return nil
        case .converged: return "stopped\(seconds): calibrated (coverage and fit passed the thresholds)"
        case .timeout: return "stopped\(seconds): timeout"
        case .interrupted: return "stopped\(seconds): interrupted (Ctrl-C)"
        }
    }

    private static func row(_ label: String, _ value: String) -> String {
        "  " + label + String(repeating: " ", count: max(0, 12 - label.count)) + value
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
