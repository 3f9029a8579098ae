import Foundation
import LodestoneCalibration
import LodestoneCore

/// What one calibration run produced, and what it means for the user.
struct CalibrationOutcome {
    enum Ending: String {
        /// Offline: the whole log (or window) was read.
        case endOfLog
        /// Live: coverage and fit quality passed the thresholds.
        case converged
        case timeout
        /// Ctrl-C: nothing is saved.
        case interrupted
    }

    enum Verdict: String {
        case good, acceptable, poor, rejected
    }

    typealias Sensor = CalibrationProfile.SensorKind

    var sensor: Sensor
    /// `log FILE` or `iio URI`.
    var source: String
    var device: CalibrationProfile.DeviceIdentity?
    var samplesRead = 0
    var timeSpan: ClosedRange<Double>?
    var fit: CalibrationFit?
    var rejection: CalibrationRejection?
    /// Magnetometer: the model field at the place, when a position was given.
    var expected: ModelField?
    /// Accelerometer: the gravity the fit was scaled to, and where it came from.
    var gravity: (value: Double, origin: String)?
    /// Magnetometer: dip measured through the fit.
    var dip: Double?
    /// Accelerometer: the still positions found.
    var positions: [StillSegment] = []
    /// Raw readings to draw in the SVG report.
    var plotPoints: [Vector3] = []
    var ending: Ending
    var seconds: Double?

    var verdict: Verdict {
        guard let fit else { return .rejected }
        switch fit.grade {
        case .good: return .good
        case .acceptable: return .acceptable
        case .poor: return .poor
        }
    }

    var settings: CalibrationFitSettings { sensor == .magnetometer ? .magnetometer : .accelerometer }
    var unit: String { settings.unit }

    /// Why the fit falls short of "good", as things to do.
    var improvements: [String] {
        guard let fit, fit.grade != .good else { return [] }
        let t = settings.gradeThresholds
        var out: [String] = []
        if fit.model < t.goodModel {
            out.append(sensor == .magnetometer
                ? "the samples supported only the \(fit.model.rawValue) model: turn through more orientations (every face up and down)"
                : "the positions supported only the \(fit.model.rawValue) model: hold it still in more orientations")
        }
        if fit.coveragePercent < t.goodCoveragePercent {
            out.append("coverage \(Format.fixed(fit.coveragePercent, 0)) % is below \(Format.fixed(t.goodCoveragePercent, 0)) %: \(fit.coverage.gaps.count) regions are empty")
        }
        if fit.fitErrorPercent > t.goodFitErrorPercent {
            out.append("fit error \(Format.fixed(fit.fitErrorPercent, 2)) % is above \(Format.fixed(t.goodFitErrorPercent, 1)) %: keep away from iron, magnets and motors, and turn slowly")
        }
        return out
    }

    /// The faces (body axes pointing up) seen among the still positions.
    var facesSeen: [(name: String, seen: Bool)] {
        Self.faces(positions.map(\.meanAcceleration))
    }

    static func faces(_ means: [Vector3]) -> [(name: String, seen: Bool)] {
        let axes: [(String, Vector3)] = [("+z", .unitZ), ("−z", -Vector3.unitZ), ("+x", .unitX), ("−x", -Vector3.unitX),
                                         ("+y", .unitY), ("−y", -Vector3.unitY)]
        return axes.map { name, axis in (name, means.contains { $0.normalized.dot(axis) >= 0.9 }) }
    }

    /// Distinct orientations among the still positions (equal-area regions).
    var orientationCount: Int { SphereCoverage(directions: positions.map(\.meanAcceleration)).filledRegions }

    // MARK: JSON

    /// Everything as one JSON object (`--json`).
    func json(savedTo saved: String?, note: String?) -> String {
        var o: [String: Any] = [
            "sensor": sensor.rawValue,
            "source": source,
            "samples": samplesRead,
            "verdict": verdict.rawValue,
            "ending": ending.rawValue,
            "unit": sensor.unit,
        ]
        o["saved"] = saved ?? NSNull()
        if let note { o["note"] = note }
        if let device, !device.isAnonymous {
            var d: [String: Any] = [:]
            d["driver"] = device.driver
            d["name"] = device.name
            d["uri"] = device.uri
            d["serial"] = device.serial
            o["device"] = d
        }
        if let timeSpan { o["timeSpan"] = [timeSpan.lowerBound, timeSpan.upperBound] }
        if let seconds { o["seconds"] = seconds }
        if let rejection { o["rejection"] = rejection.description }
        if let expected {
            o["model"] = ["name": expected.modelName, "decimalYear": expected.decimalYear,
                          "totalIntensity": expected.totalIntensity, "inclination": expected.inclination,
                          "extrapolated": expected.isExtrapolated]
        }
        if let gravity { o["gravity"] = ["value": gravity.value, "origin": gravity.origin] }
        if let dip { o["dip"] = dip }
        if sensor == .accelerometer {
            o["positions"] = positions.map { ["start": $0.startTime, "end": $0.endTime,
                                              "mean": [$0.meanAcceleration.x, $0.meanAcceleration.y, $0.meanAcceleration.z]] }
        }
        if let fit {
            o["fit"] = [
                "model": fit.model.rawValue,
                "grade": fit.grade.rawValue,
                "fitErrorPercent": fit.fitErrorPercent,
                "residualRMS": fit.residualRMS,
                "maximumResidual": fit.residuals.maximumResidual,
                "outlierCount": fit.residuals.outlierCount,
                "fittedMagnitude": fit.fittedMagnitude,
                "correctedMagnitude": fit.correctedMagnitude,
                "magnitudeRatio": fit.magnitudeRatio ?? NSNull(),
                "coveragePercent": fit.coveragePercent,
                "emptyRegions": fit.coverage.gaps.count,
                "sampleCount": fit.sampleCount,
                "offset": [fit.offset.x, fit.offset.y, fit.offset.z],
                "matrix": [fit.matrix.row0, fit.matrix.row1, fit.matrix.row2].map { [$0.x, $0.y, $0.z] },
            ] as [String: Any]
            o["improvements"] = improvements
        }
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
