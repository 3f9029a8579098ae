import Foundation
import LodestoneCore
import LodestoneTestSupport
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct CalibrationProfileTests {
    static func sampleProfile() throws -> CalibrationProfile {
        var rng = RandomSource(seed: 51)
        let sensor = DistortedMagnetometer.random(&rng, symmetric: true)
        let fit = try CalibrationFitter(settings: .magnetometer).fit((0..<500).map { _ in sensor.read(rng.attitude(), &rng) },
                                                                     expectedMagnitude: 49.8)
        return CalibrationProfile(sensor: .magnetometer,
                                  device: .init(driver: "hmc5843", name: "hmc5883l", uri: "local:", serial: nil),
                                  created: WallClockTime.iso8601(unixSeconds: 1_796_000_000, fractionDigits: 0), fit: fit)
    }

    static func json(_ p: CalibrationProfile) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(p.jsonBytes())) as? [String: Any])
    }

    static func bytes(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// Decode the profile with `change` applied to its JSON object, returning the error.
    static func error(_ change: (inout [String: Any]) -> Void) throws -> CalibrationProfileError? {
        var object = try json(sampleProfile())
        change(&object)
        let data = try bytes(object)
        do {
            _ = try CalibrationProfile(json: data)
            return nil
        } catch {
            return error
        }
    }

    @Test func roundTrip() throws {
        let p = try Self.sampleProfile()
        let data = try p.jsonBytes()
        let back = try CalibrationProfile(json: data)
        #expect(back == p)
        #expect(back.magneticCalibration?.hardIron == p.parameters.offset)
        #expect(back.accelerometerCalibration == nil)
        // Stable output: encoding again gives the same bytes.
        #expect(try back.jsonBytes() == data)
    }

    /// The documented layout (calibration/README.md).
    @Test func jsonLayout() throws {
        let object = try Self.json(Self.sampleProfile())
        #expect(object["formatVersion"] as? Int == 1)
        #expect(object["sensor"] as? String == "magnetometer")
        #expect(object["created"] as? String == "2026-11-30T00:53:20Z")
        let device = try #require(object["device"] as? [String: Any])
        #expect(device["driver"] as? String == "hmc5843")
        let parameters = try #require(object["parameters"] as? [String: Any])
        #expect(parameters["unit"] as? String == "uT")
        #expect((parameters["offset"] as? [Double])?.count == 3)
        #expect((parameters["matrix"] as? [[Double]])?.map(\.count) == [3, 3, 3])
        let quality = try #require(object["quality"] as? [String: Any])
        for key in ["model", "grade", "fitErrorPercent", "residualRMS", "fittedMagnitude", "expectedMagnitude",
                    "coveragePercent", "sampleCount", "outlierCount"] {
            #expect(quality[key] != nil, "quality.\(key)")
        }
        #expect(quality["expectedMagnitude"] as? Double == 49.8)
    }

    @Test func decodesHandWrittenExample() throws {
        let text = """
        {
          "formatVersion": 1,
          "sensor": "accelerometer",
          "device": { "name": "mpu6050" },
          "created": "2026-01-02T03:04:05.250+01:00",
          "parameters": { "unit": "m/s^2", "offset": [0.1, -0.05, 0.2],
                          "matrix": [[1.002, 0, 0], [0, 0.998, 0], [0, 0, 1.001]] },
          "quality": { "model": "diagonal", "grade": "good", "fitErrorPercent": 0.12, "residualRMS": 0.012,
                       "fittedMagnitude": 9.79, "expectedMagnitude": 9.80665, "coveragePercent": 6,
                       "sampleCount": 6, "outlierCount": 0 }
        }
        """
        let p = try CalibrationProfile(json: Data(text.utf8))
        #expect(p.sensor == .accelerometer)
        #expect(p.device.driver == nil)
        #expect(p.accelerometerCalibration?.offset == Vector3(0.1, -0.05, 0.2))
    }

    /// The example in calibration/README.md is a valid profile with the stated figures.
    @Test func readmeExampleDecodes() throws {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("calibration/README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```json\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let p = try CalibrationProfile(json: Data(readme[start.upperBound..<end.lowerBound].utf8))
        #expect(p.sensor == .magnetometer)
        #expect(p.quality.model == .full)
        #expect(p.quality.expectedMagnitude == 49.8)
        let calibration = try #require(p.magneticCalibration)
        #expect((calibration.hardIron - Vector3(-0.644, -10.545, 2.026)).length < 0.001)
    }

    @Test func rejectsBrokenJSON() throws {
        let full = try Self.sampleProfile().jsonBytes()
        for broken in [[], Array(full.prefix(full.count / 2)), Array("[1, 2]".utf8), Array("{\"formatVersion\": NaN}".utf8)] {
            #expect(throws: CalibrationProfileError.self) { try CalibrationProfile(json: broken) }
        }
        #expect(throws: CalibrationProfileError.malformedJSON("the file is empty")) { try CalibrationProfile(json: [UInt8]()) }
        // Cut short: the message says so, and on which line the text ends.
        let cut = Array(full.prefix(full.count / 2))
        let lastLine = cut.split(separator: 0x0A, omittingEmptySubsequences: false).count
        do {
            _ = try CalibrationProfile(json: cut)
            Issue.record("half a profile was accepted")
        } catch {
            guard case .malformedJSON(let detail) = error else {
                Issue.record("expected malformedJSON, got \(error)")
                return
            }
            #expect(detail.hasPrefix("the text is not valid JSON or is cut short: line \(lastLine), column "), "\(detail)")
        }
        #expect(throws: CalibrationProfileError.wrongType(field: "(top level)", expected: "an object")) {
            try CalibrationProfile(json: Array("[1, 2]".utf8))
        }
        #expect(throws: CalibrationProfileError.malformedJSON("it contains NaN or Infinity, which JSON cannot hold")) {
            try CalibrationProfile(json: Data("{\"formatVersion\": NaN}".utf8))
        }
    }

    @Test func rejectsOtherVersions() throws {
        let two = try Self.error { o in o["formatVersion"] = 2 }
        #expect(two == .unsupportedVersion(found: 2, supported: 1...1))
        #expect(two?.description.contains("formatVersion") == true)
        let zero = try Self.error { o in o["formatVersion"] = 0 }
        #expect(zero == .unsupportedVersion(found: 0, supported: 1...1))
        // A future format with different fields is still reported as a version problem.
        let future = try Self.error { o in o = ["formatVersion": 3, "somethingNew": true] }
        #expect(future == .unsupportedVersion(found: 3, supported: 1...1))
    }

    @Test func rejectsMissingFields() throws {
        let version = try Self.error { o in o["formatVersion"] = nil }
        #expect(version == .missingField("formatVersion"))
        let parameters = try Self.error { o in o["parameters"] = nil }
        #expect(parameters == .missingField("parameters"))
        let fitError = try Self.error { o in
            var q = o["quality"] as! [String: Any]
            q["fitErrorPercent"] = nil
            o["quality"] = q
        }
        #expect(fitError == .missingField("quality.fitErrorPercent"))
    }

    @Test func rejectsWrongTypes() throws {
        let created = try Self.error { o in o["created"] = 12 }
        #expect(created == .wrongType(field: "created", expected: "a string"))
        let e = try Self.error { o in o["sensor"] = "gyroscope" }
        guard case let .invalidValue(field, _)? = e else {
            Issue.record("expected invalidValue, got \(String(describing: e))")
            return
        }
        #expect(field == "sensor")
    }

    /// NaN cannot be written in JSON; "nan" strings and non-finite values in
    /// memory are caught by validation, which names the field.
    @Test func rejectsNonFiniteNumbers() throws {
        let nanString = try Self.error { o in
            var p = o["parameters"] as! [String: Any]
            p["offset"] = [1.0, "nan", 2.0] as [Any]
            o["parameters"] = p
        }
        #expect(nanString == .nonFinite(field: "parameters.offset[1]"))
        var p = try Self.sampleProfile()
        p.quality.residualRMS = .infinity
        #expect(throws: CalibrationProfileError.nonFinite(field: "quality.residualRMS")) { try p.validate() }
        #expect(throws: CalibrationProfileError.nonFinite(field: "quality.residualRMS")) { try p.jsonBytes() }
        p = try Self.sampleProfile()
        p.parameters.matrix[2, 1] = .nan
        #expect(throws: CalibrationProfileError.nonFinite(field: "parameters.matrix[2][1]")) { try p.validate() }
    }

    @Test func rejectsBadMatrices() throws {
        func withMatrix(_ rows: [[Double]]) throws -> CalibrationProfileError? {
            try Self.error { o in
                var p = o["parameters"] as! [String: Any]
                p["matrix"] = rows
                o["parameters"] = p
            }
        }
        let singular = try withMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 0]])
        #expect(singular == .notPositiveDefinite(field: "parameters.matrix"))
        let flipped = try withMatrix([[1, 0, 0], [0, -1, 0], [0, 0, 1]])
        #expect(flipped == .notPositiveDefinite(field: "parameters.matrix"))
        let e = try withMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 0.02]])
        guard case let .illConditioned(field, condition, _)? = e else {
            Issue.record("expected illConditioned, got \(String(describing: e))")
            return
        }
        #expect(field == "parameters.matrix")
        #expect(abs(condition - 50) < 1e-9)
        let shape = try withMatrix([[1, 0], [0, 1]])
        #expect(shape == .invalidValue(field: "parameters.matrix", reason: "needs 3 rows of 3 numbers"))
    }

    @Test func rejectsImplausibleValues() throws {
        let e = try Self.error { o in
            var q = o["quality"] as! [String: Any]
            q["fittedMagnitude"] = 0.5
            o["quality"] = q
        }
        #expect(e == .implausibleMagnitude(field: "quality.fittedMagnitude", value: 0.5, range: 10...100, unit: "uT"))
        let unit = try Self.error { o in
            var p = o["parameters"] as! [String: Any]
            p["unit"] = "gauss"
            o["parameters"] = p
        }
        guard case .invalidValue("parameters.unit", _)? = unit else {
            Issue.record("expected a unit error, got \(String(describing: unit))")
            return
        }
        let date = try Self.error { o in o["created"] = "2026-02-30T10:00:00Z" }
        guard case .invalidValue("created", _)? = date else {
            Issue.record("expected a date error, got \(String(describing: date))")
            return
        }
        let coverage = try Self.error { o in
            var q = o["quality"] as! [String: Any]
            q["coveragePercent"] = 130
            o["quality"] = q
        }
        guard case .invalidValue("quality.coveragePercent", _)? = coverage else {
            Issue.record("expected a coverage error, got \(String(describing: coverage))")
            return
        }
    }

    @Test func timestamps() {
        #expect(WallClockTime.iso8601(unixSeconds: 0, fractionDigits: 0) == "1970-01-01T00:00:00Z")
        #expect(WallClockTime.iso8601(unixSeconds: 951_782_400, fractionDigits: 0) == "2000-02-29T00:00:00Z")
        #expect(WallClockTime.iso8601(unixSeconds: -1, fractionDigits: 0) == "1969-12-31T23:59:59Z")
        #expect(WallClockTime.iso8601(unixSeconds: 1_796_000_000, fractionDigits: 0) == "2026-11-30T00:53:20Z")
        for good in ["2026-11-30T04:00:00Z", "2024-02-29T23:59:60.5+05:30", "2026-01-01T00:00:00-08:00"] {
            #expect(WallClockTime.isDateTimeWithZone(good), "\(good)")
        }
        for bad in ["2026-11-30", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-30T24:00:00Z",
                    "2026-11-30T04:00:00", "2026-11-30T04:00:00Zjunk", "2026-11-30T04:00:00.Z"] {
            #expect(!WallClockTime.isDateTimeWithZone(bad), "\(bad)")
        }
    }
}
