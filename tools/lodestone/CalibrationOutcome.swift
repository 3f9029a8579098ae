import FoundationEssentials
import LodestoneCalibration
import LodestoneCore
import LodestoneLogs

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
    /// Magnetometer: the rotation onto the accelerometer's axes, or why there is none.
    var alignment: Result<MagnetometerAlignment, MagnetometerAlignment.Refusal>?
    /// Accelerometer: the still positions found.
    var positions: [StillSegment] = []
    /// Raw readings to draw in the SVG report.
    var plotPoints: [Vector3] = []
    var ending: Ending
    var seconds: Double?

    /// Takes a magnetometer fit: turned onto the accelerometer's axes where
    /// the still readings among `samples` pin the rotation down, then the dip
    /// measured through it.
    mutating func takeMagnetometerFit(_ fit: CalibrationFit, samples: [SensorSample]) {
        let readings = samples.map {
            MagnetometerAlignment.Reading(field: fit.apply($0.magneticField), acceleration: $0.acceleration,
                                          angularRate: $0.angularRate)
        }
        let alignment = MagnetometerAlignment.fit(readings)
        let aligned = (try? alignment.get()).map(fit.aligned(by:)) ?? fit
        self.alignment = alignment
        self.fit = aligned
        dip = MeasuredDip.median(fields: samples.map { aligned.apply($0.magneticField) }, accelerations: samples.map(\.acceleration))
    }

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
        func number(_ v: Double?) -> JSONValue { v.map { $0.isFinite ? .number($0) : .null } ?? .null }
        func vector(_ v: Vector3) -> JSONValue { .array([number(v.x), number(v.y), number(v.z)]) }
        var o: [String: JSONValue] = [
            "sensor": .string(sensor.rawValue),
            "source": .string(source),
            "samples": .number(Double(samplesRead)),
            "verdict": .string(verdict.rawValue),
            "ending": .string(ending.rawValue),
            "unit": .string(sensor.unit),
            "saved": saved.map(JSONValue.string) ?? .null,
        ]
        if let note { o["note"] = .string(note) }
        if let device, !device.isAnonymous {
            var d: [String: JSONValue] = [:]
            for (key, value) in [("driver", device.driver), ("name", device.name), ("uri", device.uri), ("serial", device.serial)] {
                if let value { d[key] = .string(value) }
            }
            o["device"] = .object(d)
        }
        if let timeSpan { o["timeSpan"] = .array([number(timeSpan.lowerBound), number(timeSpan.upperBound)]) }
        if let seconds { o["seconds"] = number(seconds) }
        if let rejection { o["rejection"] = .string(rejection.description) }
        if let expected {
            o["model"] = .object(["name": .string(expected.modelName), "decimalYear": number(expected.decimalYear),
                                  "totalIntensity": number(expected.totalIntensity), "inclination": number(expected.inclination),
                                  "extrapolated": .bool(expected.isExtrapolated)])
        }
        if let gravity { o["gravity"] = .object(["value": number(gravity.value), "origin": .string(gravity.origin)]) }
        if let dip { o["dip"] = number(dip) }
        switch alignment {
        case .success(let a)?:
            o["alignment"] = .object(["degrees": number(a.angle), "uncertainty": number(a.uncertainty),
                                      "dipSpreadBefore": number(a.dipSpreadBefore), "dipSpreadAfter": number(a.dipSpreadAfter),
                                      "readings": .number(Double(a.readingsUsed))])
        case .failure(let refusal)?:
            o["alignment"] = .object(["refused": .string(refusal.description)])
        case nil:
            break
        }
        if sensor == .accelerometer {
            o["positions"] = .array(positions.map {
                .object(["start": number($0.startTime), "end": number($0.endTime), "mean": vector($0.meanAcceleration)])
            })
        }
        if let fit {
            o["fit"] = .object([
                "model": .string(fit.model.rawValue),
                "grade": .string(fit.grade.rawValue),
                "fitErrorPercent": number(fit.fitErrorPercent),
                "residualRMS": number(fit.residualRMS),
                "maximumResidual": number(fit.residuals.maximumResidual),
                "outlierCount": .number(Double(fit.residuals.outlierCount)),
                "fittedMagnitude": number(fit.fittedMagnitude),
                "correctedMagnitude": number(fit.correctedMagnitude),
                "magnitudeRatio": number(fit.magnitudeRatio),
                "coveragePercent": number(fit.coveragePercent),
                "emptyRegions": .number(Double(fit.coverage.gaps.count)),
                "sampleCount": .number(Double(fit.sampleCount)),
                "offset": vector(fit.offset),
                "matrix": .array([vector(fit.matrix.row0), vector(fit.matrix.row1), vector(fit.matrix.row2)]),
            ])
            o["improvements"] = .array(improvements.map(JSONValue.string))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(JSONValue.object(o))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
