import Foundation
import Testing
import LodestoneTestSupport
@testable import LodestoneLocation

/// Lodestone's GPX validated against the official GPX 1.1 schema with `xmllint`
/// (Debian libxml2-utils). The schema comes from `tools/fetch-gpx-schema` (which
/// `tools/test` runs) or `$LODESTONE_GPX_XSD`.
@Suite struct GPXSchemaTests {
    static var schema: URL? {
        if let path = ProcessInfo.processInfo.environment["LODESTONE_GPX_XSD"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let url = SharedData.packageRoot.appendingPathComponent("tools/.gpx-schema/gpx.xsd")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    static func skipUnlessAvailable() throws -> (xmllint: URL, schema: URL)? {
        var missing: [String] = []
        let xmllint = GeodSolveProcess.onPath("xmllint")
        if xmllint == nil { missing.append("xmllint (install Debian libxml2-utils)") }
        if schema == nil { missing.append("the GPX 1.1 schema (run tools/fetch-gpx-schema, or set LODESTONE_GPX_XSD)") }
        guard let xmllint, let schema else {
            let reason = "skipped: GPX schema validation needs " + missing.joined(separator: " and ")
            if SharedData.isInCI { Issue.record("CI=true but \(reason)") } else { try Test.cancel(Comment(rawValue: reason)) }
            return nil
        }
        return (xmllint, schema)
    }

    /// `xmllint --noout --nonet --schema gpx.xsd FILE`: exit status and messages.
    static func validate(_ gpx: String, with tools: (xmllint: URL, schema: URL)) throws -> (status: Int32, output: String) {
        let directory = TemporaryDirectory()
        let file = directory.file("track.gpx", gpx)
        let process = Process()
        process.executableURL = tools.xmllint
        process.arguments = ["--noout", "--nonet", "--schema", tools.schema.path, file]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Everything the writer can put in a file: metadata, waypoints, a route, a track of
    /// two segments (one empty), extensions, names that need escaping.
    static let fullDocument = GPXDocument(
        creator: "Lodestone <test> & \"friends\"", name: "Morning ride: A→B & back", time: 1_780_000_000.5,
        waypoints: [GPXPoint(latitude: 52.5163, longitude: 13.3777, elevation: 34.5, time: 1_780_000_000, name: "Gate <1>"),
                    GPXPoint(latitude: -90, longitude: -180)],
        routes: [GPXRoute(name: "plan", points: [GPXPoint(latitude: 1, longitude: 2), GPXPoint(latitude: 1.5, longitude: 2.5, name: "via")])],
        tracks: [GPXTrack(name: "ride", segments: [
            [GPXPoint(latitude: 52.5, longitude: 13.4, elevation: -1.25, time: 1_780_000_001.125, speed: 4.5, course: 359.99,
                      horizontalAccuracy: 3.5, verticalAccuracy: 6),
             GPXPoint(latitude: 52.50001, longitude: 13.40002, time: 1_780_000_002, speed: 0),
             GPXPoint(latitude: 52.50002, longitude: 13.40004, time: 1_780_000_003, horizontalAccuracy: 0)],
            [],
        ]), GPXTrack()])

    @Test func writtenGPXIsValidGPX11() throws {
        guard let tools = try Self.skipUnlessAvailable() else { return }
        for document in [Self.fullDocument, GPXDocument(), GPXDocument(tracks: [GPXTrack(segments: [[]])])] {
            let result = try Self.validate(GPXWriter.write(document), with: tools)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("validates"), "\(result.output)")
        }
    }

    /// The check can fail: a file with the elements of a point out of the schema's order does not validate.
    @Test func schemaCheckRejectsInvalidGPX() throws {
        guard let tools = try Self.skipUnlessAvailable() else { return }
        let invalid = GPXWriter.write(GPXDocument(waypoints: [GPXPoint(latitude: 1, longitude: 2, elevation: 3, time: 4)]))
            .replacingOccurrences(of: "<ele>3.000</ele><time>1970-01-01T00:00:04.000Z</time>",
                                  with: "<time>1970-01-01T00:00:04.000Z</time><ele>3.000</ele>")
        #expect(invalid.contains("<time>1970-01-01T00:00:04.000Z</time><ele>"))
        let result = try Self.validate(invalid, with: tools)
        #expect(result.status != 0, "\(result.output)")
    }
}
