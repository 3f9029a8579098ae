import Foundation
import Testing
import LodestoneSimulation
import LodestoneCore
import LodestoneTestSupport
@testable import LodestoneSteering

/// ≥ 10 000 pseudo-random pairs against GeographicLib's GeodSolve, run live.
///
/// Skipped (cancelled, with the reason) when GeodSolve is not installed;
/// with `CI=true` its absence fails instead, since CI installs
/// geographiclib-tools.
@Suite struct GeodesicRandomizedTests {
    /// Deterministic pairs (fixed seed), weighted toward the hard cases.
    static func pairs() -> [(Double, Double, Double, Double)] {
        var random = RandomSource(seed: 0x4C6F_6465_7374_6F6E)
        var pairs: [(Double, Double, Double, Double)] = []
        func uniformLatitude() -> Double { asin(random.uniform(-1, 1)) * 180 / .pi }
        func clampLatitude(_ lat: Double) -> Double { min(90, max(-90, lat)) }
        // Anywhere to anywhere (uniform on the sphere).
        for _ in 0..<3000 {
            pairs.append((uniformLatitude(), random.uniform(-180, 180), uniformLatitude(), random.uniform(-180, 180)))
        }
        // Short: 1 mm to 100 km, any direction.
        for _ in 0..<3000 {
            let lat1 = uniformLatitude(), lon1 = random.uniform(-180, 180)
            let metres = pow(10, random.uniform(-3, 5)), direction = random.uniform(0, 2 * .pi)
            let dLat = metres * cos(direction) / 111_000
            let dLon = metres * sin(direction) / (111_000 * max(cos(lat1 * .pi / 180), 1e-3))
            pairs.append((lat1, lon1, clampLatitude(lat1 + dLat), lon1 + dLon))
        }
        // Nearly antipodal: within 1e-6°…3° of the antipode, never on it.
        for _ in 0..<2500 {
            let lat1 = uniformLatitude(), lon1 = random.uniform(-180, 180)
            let dLat = pow(10, random.uniform(-6, 0.5)) * (random.uniform(0, 1) < 0.5 ? -1 : 1)
            let dLon = pow(10, random.uniform(-6, 0.5)) * (random.uniform(0, 1) < 0.5 ? -1 : 1)
            pairs.append((lat1, lon1, clampLatitude(-lat1 + dLat), lon1 + 180 + dLon))
        }
        // Equatorial, meridional, polar and mirror-latitude configurations.
        for i in 0..<1500 {
            let lat = uniformLatitude(), lon = random.uniform(-180, 180), other = random.uniform(-180, 180)
            switch i % 6 {
            case 0: pairs.append((0, lon, 0, other))                       // equator
            case 1: pairs.append((lat, lon, uniformLatitude(), lon))       // one meridian
            case 2: pairs.append((lat, lon, uniformLatitude(), lon + 180)) // over a pole
            case 3: pairs.append((90, lon, lat, other))                    // from the North Pole
            case 4: pairs.append((lat, lon, -90, other))                   // to the South Pole
            default: pairs.append((lat, lon, -lat, other))                 // mirror latitudes
            }
        }
        // Across the dateline.
        for _ in 0..<1000 {
            pairs.append((uniformLatitude(), random.uniform(170, 180), uniformLatitude(), random.uniform(-180, -170)))
        }
        return pairs
    }

    @Test func inverseMatchesGeodSolveOnRandomPairs() throws {
        guard let geodSolve = GeodSolveProcess.executable else {
            let reason = "GeodSolve not found on PATH; install Debian geographiclib-tools to compare with GeographicLib"
            if SharedData.isInCI {
                Issue.record("CI=true but \(reason)")
                return
            }
            try Test.cancel("skipped: \(reason)")
        }
        // Fixed-point text (GeodSolve does not read exponents); both sides use the parsed values.
        let lines = Self.pairs().map { p in
            String(format: "%.15f %.15f %.15f %.15f", p.0, Angle.normalized180(p.1), p.2, Angle.normalized180(p.3))
        }
        let answers = try GeodSolveProcess.run(geodSolve, arguments: ["-i", "-p", "12"], lines: lines)
        #expect(lines.count >= 10_000)

        var maxAzimuthError = 0.0, maxDistanceError = 0.0
        var worstAzimuth = "", worstDistance = ""
        var failures = 0
        for (query, answer) in zip(lines, answers) {
            let q = query.split(separator: " ").map { Double($0)! }
            let a = answer.split(separator: " ").compactMap { Double($0) }
            try #require(a.count == 3, "GeodSolve answered \"\(answer)\" for \"\(query)\"")
            let start = try GeoCoordinate(latitude: q[0], longitude: q[1])
            let end = try GeoCoordinate(latitude: q[2], longitude: q[3])
            let solution = Geodesic.wgs84.inverse(from: start, to: end)
            if a[2] == 0 { continue }  // coincident: bearings follow our documented convention
            let azimuthError = max(abs(Angle.difference(from: a[0], to: solution.initialBearing)),
                                   abs(Angle.difference(from: a[1], to: solution.finalBearing)))
            let distanceError = abs(solution.distance - a[2])
            if azimuthError > maxAzimuthError { maxAzimuthError = azimuthError; worstAzimuth = query }
            if distanceError > maxDistanceError { maxDistanceError = distanceError; worstDistance = query }
            if azimuthError > 1e-6 || distanceError > 1e-3 {
                failures += 1
                if failures <= 10 {
                    Issue.record("\(query): GeodSolve \(answer), ours \(solution.initialBearing) \(solution.finalBearing) \(solution.distance)")
                }
            }
        }
        print("GeodSolve comparison, \(lines.count) pairs: max azimuth error \(maxAzimuthError)° at \(worstAzimuth); max distance error \(maxDistanceError) m at \(worstDistance)")
        #expect(failures == 0)
    }

    @Test func directMatchesGeodSolveOnRandomCases() throws {
        guard let geodSolve = GeodSolveProcess.executable else {
            let reason = "GeodSolve not found on PATH; install Debian geographiclib-tools to compare with GeographicLib"
            if SharedData.isInCI {
                Issue.record("CI=true but \(reason)")
                return
            }
            try Test.cancel("skipped: \(reason)")
        }
        var random = RandomSource(seed: 0xD12EC7)
        let lines = (0..<3000).map { _ in
            String(format: "%.15f %.15f %.15f %.9f", asin(random.uniform(-1, 1)) * 180 / .pi,
                   random.uniform(-180, 180), random.uniform(-180, 180), pow(10, random.uniform(-3, 7.3)))
        }
        let answers = try GeodSolveProcess.run(geodSolve, arguments: ["-p", "12"], lines: lines)
        var maxPositionError = 0.0, maxAzimuthError = 0.0
        for (query, answer) in zip(lines, answers) {
            let q = query.split(separator: " ").map { Double($0)! }
            let a = answer.split(separator: " ").compactMap { Double($0) }
            try #require(a.count == 3, "GeodSolve answered \"\(answer)\" for \"\(query)\"")
            let solution = try Geodesic.wgs84.direct(from: try GeoCoordinate(latitude: q[0], longitude: q[1]),
                                                     bearing: q[2], distance: q[3])
            // Longitude error scaled by cos(latitude): degrees of arc on the ground.
            let positionError = max(abs(solution.destination.latitude - a[0]),
                                    abs(Angle.difference(from: a[1], to: solution.destination.longitude)) * cos(a[0] * .pi / 180))
            maxPositionError = max(maxPositionError, positionError)
            maxAzimuthError = max(maxAzimuthError, abs(Angle.difference(from: a[2], to: solution.finalBearing)))
            #expect(positionError <= 1e-8, "\(query): GeodSolve \(answer), ours \(solution)")
        }
        print("GeodSolve direct comparison, \(lines.count) cases: max position error \(maxPositionError)° of arc (\(maxPositionError * 111_320) m), max azimuth error \(maxAzimuthError)°")
        #expect(maxAzimuthError <= 1e-6)
    }

}
