import Testing
import LodestoneSimulation
import LodestoneCore
@testable import LodestoneSteering

/// The direct and inverse solutions must undo each other: a check of the direct
/// problem everywhere, beyond the few fixed GeodSolve cases.
@Suite struct GeodesicRoundTripTests {
    @Test func directInvertsInverse() throws {
        var random = RandomSource(seed: 11)
        for _ in 0..<500 {
            let start = try GeoCoordinate(latitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180))
            // Below 19 000 km every geodesic on WGS84 is still the shortest path (its cut
            // locus lies near the antipode, ~20 000 km away), so the inverse must find it again.
            let bearing = random.uniform(0, 360), distance = random.uniform(1, 19_000_000)
            let end = try Geodesic.wgs84.direct(from: start, bearing: bearing, distance: distance)
            let back = Geodesic.wgs84.inverse(from: start, to: end.destination)
            #expect(abs(back.distance - distance) < 1e-6)
            #expect(abs(Angle.difference(from: bearing, to: back.initialBearing)) < 1e-8)
            #expect(abs(Angle.difference(from: end.finalBearing, to: back.finalBearing)) < 1e-8)
        }
    }
}
