import LodestoneCore
import LodestoneJSON

/// The JSON form of a profile (`calibration/README.md`), read with the package's
/// own JSON parser and written with its writer: no Foundation, so the daemon
/// that loads profiles stays small.
extension CalibrationProfile {
    /// Decodes and validates a profile from the bytes of a JSON file.
    public init(json bytes: some Collection<UInt8>) throws(CalibrationProfileError) {
        let text = Array(bytes)
        guard !text.isEmpty else { throw .malformedJSON("the file is empty") }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: text)
        } catch {
            let content = String(decoding: text, as: UTF8.self)
            if content.contains("NaN") || content.contains("Infinity") {
                throw .malformedJSON("it contains NaN or Infinity, which JSON cannot hold")
            }
            throw .malformedJSON("the text is not valid JSON or is cut short: \(error)")
        }
        do {
            self = try Self(document: JSONField(document))
        } catch let error as CalibrationProfileError {
            throw error
        } catch let error as JSONFieldError {
            throw CalibrationProfileError(error)
        } catch {
            throw .malformedJSON("\(error)")
        }
        try validate()
    }

    /// Reads the fields in the order of the format; the version first, as a newer
    /// format may differ in everything else.
    private init(document root: JSONField) throws {
        let version = try root.member("formatVersion").integer()
        guard Self.supportedFormatVersions.contains(version) else {
            throw CalibrationProfileError.unsupportedVersion(found: version, supported: Self.supportedFormatVersions)
        }
        let device = try root.member("device")
        _ = try device.object()
        let parameters = try root.member("parameters")
        let quality = try root.member("quality")
        self.init(
            formatVersion: version,
            sensor: try root.member("sensor").oneOf(SensorKind.self),
            device: DeviceIdentity(driver: try device.member("driver").optionalString(),
                                   name: try device.member("name").optionalString(),
                                   uri: try device.member("uri").optionalString(),
                                   serial: try device.member("serial").optionalString()),
            created: try root.member("created").string(),
            parameters: try Parameters(parameters),
            quality: Quality(model: try quality.member("model").oneOf(CalibrationModel.self),
                             grade: try quality.member("grade").oneOf(CalibrationGrade.self),
                             fitErrorPercent: try quality.member("fitErrorPercent").number(nonFiniteStrings: true),
                             residualRMS: try quality.member("residualRMS").number(nonFiniteStrings: true),
                             fittedMagnitude: try quality.member("fittedMagnitude").number(nonFiniteStrings: true),
                             expectedMagnitude: try quality.member("expectedMagnitude").optionalNumber(nonFiniteStrings: true),
                             coveragePercent: try quality.member("coveragePercent").number(nonFiniteStrings: true),
                             sampleCount: try quality.member("sampleCount").integer(),
                             outlierCount: try quality.member("outlierCount").integer(),
                             dip: try quality.member("dip").optionalNumber(nonFiniteStrings: true),
                             update: try Update(quality.member("update")))
        )
    }

    /// Validates, then encodes as pretty-printed JSON with sorted keys (stable diffs),
    /// ending in a newline.
    public func jsonBytes() throws(CalibrationProfileError) -> [UInt8] {
        try validate()
        let writer = JSONLineBuilder(capacity: 2048)
        writer.append(jsonValue, pretty: true)
        return Array(writer.bytes) + [0x0A]
    }

    /// The profile as a JSON document; absent optional values are left out.
    public var jsonValue: JSONValue {
        func vector(_ v: Vector3) -> JSONValue { .array([.number(v.x), .number(v.y), .number(v.z)]) }
        var identity: [String: JSONValue] = [:]
        for (key, value) in [("driver", device.driver), ("name", device.name), ("uri", device.uri), ("serial", device.serial)] {
            if let value { identity[key] = .string(value) }
        }
        let q = quality
        var fit: [String: JSONValue] = [
            "model": .string(q.model.rawValue),
            "grade": .string(q.grade.rawValue),
            "fitErrorPercent": .number(q.fitErrorPercent),
            "residualRMS": .number(q.residualRMS),
            "fittedMagnitude": .number(q.fittedMagnitude),
            "coveragePercent": .number(q.coveragePercent),
            "sampleCount": .number(Double(q.sampleCount)),
            "outlierCount": .number(Double(q.outlierCount)),
        ]
        if let m = q.expectedMagnitude { fit["expectedMagnitude"] = .number(m) }
        if let dip = q.dip { fit["dip"] = .number(dip) }
        if let u = q.update {
            fit["update"] = .object([
                "method": .string(u.method),
                "time": .string(u.time),
                "previousOffset": .array(u.previousOffset.map { .number($0) }),
                "previousFitErrorPercent": .number(u.previousFitErrorPercent),
            ])
        }
        let m = parameters.matrix
        return .object([
            "formatVersion": .number(Double(formatVersion)),
            "sensor": .string(sensor.rawValue),
            "device": .object(identity),
            "created": .string(created),
            "parameters": .object([
                "unit": .string(parameters.unit),
                "offset": vector(parameters.offset),
                "matrix": .array([vector(m.row0), vector(m.row1), vector(m.row2)]),
            ]),
            "quality": .object(fit),
        ])
    }
}

extension CalibrationProfile.Parameters {
    fileprivate init(_ field: JSONField) throws {
        let unit = try field.member("unit").string()
        let offset = try field.member("offset").array().map { f throws(JSONFieldError) in try f.number(nonFiniteStrings: true) }
        let matrix = try field.member("matrix").array().map { row throws(JSONFieldError) in
            try row.array().map { f throws(JSONFieldError) in try f.number(nonFiniteStrings: true) }
        }
        guard offset.count == 3 else {
            throw CalibrationProfileError.invalidValue(field: "\(field.path).offset", reason: "needs 3 numbers [x, y, z], has \(offset.count)")
        }
        guard matrix.count == 3, matrix.allSatisfy({ $0.count == 3 }) else {
            throw CalibrationProfileError.invalidValue(field: "\(field.path).matrix", reason: "needs 3 rows of 3 numbers")
        }
        self.init(unit: unit, offset: Vector3(offset[0], offset[1], offset[2]),
                  matrix: Matrix3(rows: Vector3(matrix[0][0], matrix[0][1], matrix[0][2]),
                                  Vector3(matrix[1][0], matrix[1][1], matrix[1][2]),
                                  Vector3(matrix[2][0], matrix[2][1], matrix[2][2])))
    }
}

extension CalibrationProfile.Update {
    /// Nil when the profile has no note (as `lodestone calibrate` made it).
    fileprivate init?(_ field: JSONField) throws {
        guard !field.isAbsent else { return nil }
        _ = try field.object()
        self.init(method: try field.member("method").string(),
                  time: try field.member("time").string(),
                  previousOffset: try field.member("previousOffset").array().map { f throws(JSONFieldError) in try f.number(nonFiniteStrings: true) },
                  previousFitErrorPercent: try field.member("previousFitErrorPercent").number(nonFiniteStrings: true))
    }
}

extension CalibrationProfileError {
    /// The same problem, in the profile's terms.
    init(_ error: JSONFieldError) {
        switch error {
        case .missing(let path):
            self = .missingField(path)
        case let .wrongType(path, expected, found):
            self = .wrongType(field: path, expected: found == "null" ? "\(expected), not null" : expected)
        case let .invalid(path, reason):
            self = .invalidValue(field: path, reason: reason)
        }
    }
}
