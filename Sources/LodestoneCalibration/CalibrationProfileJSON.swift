// Foundation is used here for JSONEncoder/JSONDecoder only; no file I/O.
import Foundation
import LodestoneCore

extension CalibrationProfile: Codable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, sensor, device, created, parameters, quality
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // The version first: a newer format may differ in everything else.
        let version = try c.decode(Int.self, forKey: .formatVersion)
        guard Self.supportedFormatVersions.contains(version) else {
            throw CalibrationProfileError.unsupportedVersion(found: version, supported: Self.supportedFormatVersions)
        }
        self.init(
            formatVersion: version,
            sensor: try c.decode(SensorKind.self, forKey: .sensor),
            device: try c.decode(DeviceIdentity.self, forKey: .device),
            created: try c.decode(String.self, forKey: .created),
            parameters: try c.decode(Parameters.self, forKey: .parameters),
            quality: try c.decode(Quality.self, forKey: .quality)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(formatVersion, forKey: .formatVersion)
        try c.encode(sensor, forKey: .sensor)
        try c.encode(device, forKey: .device)
        try c.encode(created, forKey: .created)
        try c.encode(parameters, forKey: .parameters)
        try c.encode(quality, forKey: .quality)
    }

    /// Decodes and validates a profile from JSON bytes.
    public init(json: Data) throws(CalibrationProfileError) {
        let decoder = JSONDecoder()
        // Lets "nan"/"inf" strings through to validation, which names the field.
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            self = try decoder.decode(CalibrationProfile.self, from: json)
        } catch let error as CalibrationProfileError {
            throw error
        } catch let error as DecodingError {
            throw Self.profileError(error, json: json)
        } catch {
            throw .malformedJSON(String(describing: error))
        }
        try validate()
    }

    /// Validates, then encodes as pretty-printed JSON with sorted keys (stable diffs).
    public func jsonData() throws(CalibrationProfileError) -> Data {
        try validate()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            throw .invalidValue(field: "(profile)", reason: "cannot be encoded: \(error)")
        }
    }

    static func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
        var out = ""
        for key in codingPath + (last.map { [$0] } ?? []) {
            if let i = key.intValue {
                out += "[\(i)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out.isEmpty ? "(top level)" : out
    }

    static func profileError(_ error: DecodingError, json: Data) -> CalibrationProfileError {
        switch error {
        case let .keyNotFound(key, context):
            return .missingField(path(context.codingPath, key))
        case let .valueNotFound(type, context):
            return .wrongType(field: path(context.codingPath), expected: "a \(typeName(type)), not null")
        case let .typeMismatch(type, context):
            return .wrongType(field: path(context.codingPath), expected: "a \(typeName(type))")
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                let text = String(decoding: json, as: UTF8.self)
                if text.contains("NaN") || text.contains("Infinity") {
                    return .malformedJSON("it contains NaN or Infinity, which JSON cannot hold")
                }
                return .malformedJSON(json.isEmpty ? "the file is empty" : "the text is not valid JSON or is cut short")
            }
            return .invalidValue(field: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .malformedJSON(String(describing: error))
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "number"
        case is Int.Type: return "integer"
        case is String.Type: return "string"
        case is [Any].Type: return "array"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Dictionary") ? "object" : (name.hasPrefix("Array") ? "array" : name)
        }
    }
}

extension CalibrationProfile.Parameters: Codable {
    private enum CodingKeys: String, CodingKey {
        case unit, offset, matrix
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let unit = try c.decode(String.self, forKey: .unit)
        let offset = try c.decode([Double].self, forKey: .offset)
        let matrix = try c.decode([[Double]].self, forKey: .matrix)
        let base = CalibrationProfile.path(decoder.codingPath)
        guard offset.count == 3 else {
            throw CalibrationProfileError.invalidValue(field: "\(base).offset", reason: "needs 3 numbers [x, y, z], has \(offset.count)")
        }
        guard matrix.count == 3, matrix.allSatisfy({ $0.count == 3 }) else {
            throw CalibrationProfileError.invalidValue(field: "\(base).matrix", reason: "needs 3 rows of 3 numbers")
        }
        self.init(unit: unit, offset: Vector3(offset[0], offset[1], offset[2]),
                  matrix: Matrix3(rows: Vector3(matrix[0][0], matrix[0][1], matrix[0][2]),
                                  Vector3(matrix[1][0], matrix[1][1], matrix[1][2]),
                                  Vector3(matrix[2][0], matrix[2][1], matrix[2][2])))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(unit, forKey: .unit)
        try c.encode([offset.x, offset.y, offset.z], forKey: .offset)
        try c.encode([matrix.row0, matrix.row1, matrix.row2].map { [$0.x, $0.y, $0.z] }, forKey: .matrix)
    }
}
