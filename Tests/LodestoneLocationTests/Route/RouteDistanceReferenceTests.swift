import Foundation
import Testing
import LodestoneSimulation
import LodestoneSteering
import LodestoneTestSupport
@testable import LodestoneLocation

/// The distance of a recorded track, exported to GPX and read back, checked leg by
/// leg against GeographicLib's `GeodSolve` (Debian geographiclib-tools).
@Suite struct RouteDistanceReferenceTests {
    /// A random walk of legs from 20 m to 200 km, through mid latitudes, the dateline and near a pole.
    static func walk() -> [Location] {
        var random = RandomSource(seed: 1414)
        var fixes: [Location] = []
        for (latitude, longitude) in [(52.5, 13.4), (-33.9, 179.95), (88.5, -40.0)] {
            var position = try! GeoCoordinate(latitude: latitude, longitude: longitude)
            var time = 1_780_000_000.0 + Double(fixes.count) * 1000
            for _ in 0..<150 {
                fixes.append(Location(latitude: position.latitude, longitude: position.longitude,
                                      horizontalAccuracy: 3, timestamp: time))
                let length = 20 * pow(10_000, random.uniform())
                position = try! Geodesic.wgs84.direct(from: position, bearing: 360 * random.uniform(), distance: length).destination
                time += 1 + length / 300
            }
        }
        return fixes
    }

    @Test func gpxDistanceMatchesGeodSolvePerLeg() throws {
        guard let geodSolve = GeodSolveProcess.executable else {
            let reason = "GeodSolve not found on PATH; install Debian geographiclib-tools to compare with GeographicLib"
            if SharedData.isInCI { Issue.record("CI=true but \(reason)") } else { try Test.cancel("skipped: \(reason)") }
            return
        }
        var recorder = try RouteRecorder()
        let fixes = Self.walk()
        try recorder.start(at: fixes[0].timestamp)
        for (i, fix) in fixes.enumerated() {
            // The three walks are separate segments.
            if i > 0, i % 150 == 0 {
                try recorder.pause(at: fixes[i - 1].timestamp)
                try recorder.resume(at: fix.timestamp)
            }
            let outcome = recorder.add(fix)
            #expect(i % 150 == 0 || outcome != .stationary, "leg \(i) is longer than the accuracy")
        }
        let document = try GPXReader.read(GPXWriter.write(recorder.gpx(name: "reference walk")))
        let segments = document.tracks[0].segments
        #expect(segments.map(\.count) == [150, 150, 150])

        var legs: [(GPXPoint, GPXPoint)] = []
        for segment in segments { legs += zip(segment, segment.dropFirst()) }
        // GeodSolve reads the coordinates exactly as the GPX file has them (nine decimals).
        let lines = legs.map { "\(GPXWriter.number($0.0.latitude, 9)) \(GPXWriter.number($0.0.longitude, 9)) \(GPXWriter.number($0.1.latitude, 9)) \(GPXWriter.number($0.1.longitude, 9))" }
        let answers = try GeodSolveProcess.run(geodSolve, arguments: ["-i", "-p", "9"], lines: lines)
        var referenceTotal = 0.0
        for (leg, answer) in zip(legs, answers) {
            let reference = try #require(Double(answer.split(separator: " ")[2]), "\(answer)")
            referenceTotal += reference
            let ours = Geodesic.wgs84.inverse(from: try GeoCoordinate(latitude: leg.0.latitude, longitude: leg.0.longitude),
                                              to: try GeoCoordinate(latitude: leg.1.latitude, longitude: leg.1.longitude)).distance
            #expect(abs(ours - reference) <= 1e-3, "\(leg.0) → \(leg.1): \(ours) vs GeodSolve \(reference)")
        }
        // The recorder measured the unrounded fixes; nine decimals move each end by < 0.06 mm.
        #expect(abs(recorder.statistics().distance - referenceTotal) <= 1e-3 * Double(legs.count))
        #expect(referenceTotal > 1_000_000)
    }
}
