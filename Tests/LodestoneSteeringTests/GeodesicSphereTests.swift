import Foundation
import Testing
import LodestoneSimulation
import LodestoneCore
@testable import LodestoneSteering

/// With f = 0 the ellipsoidal solution must reduce to spherical trigonometry,
/// an independent closed form for bearing and great-circle distance.
@Suite struct GeodesicSphereTests {
    static let radius = 6_371_000.0
    static let sphere = Geodesic(equatorialRadius: radius, flattening: 0)

    /// Initial bearing (degrees) and distance (m) on the sphere, robust atan2 forms.
    static func spherical(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> (Double, Double) {
        let r = Double.pi / 180
        let (p1, p2, dl) = (lat1 * r, lat2 * r, (lon2 - lon1) * r)
        let y = cos(p2) * sin(dl)
        let x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        let angle = atan2((x * x + y * y).squareRoot(), sin(p1) * sin(p2) + cos(p1) * cos(p2) * cos(dl))
        return (atan2(y, x) / r, angle * radius)
    }

    @Test func matchesSphericalTrigonometry() throws {
        var random = RandomSource(seed: 7)
        var checked = 0
        for _ in 0..<2000 {
            let lat1 = random.uniform(-89, 89), lon1 = random.uniform(-180, 180)
            let lat2 = random.uniform(-89, 89), lon2 = random.uniform(-180, 180)
            let (bearing, distance) = Self.spherical(lat1, lon1, lat2, lon2)
            // The bearing is ill-conditioned within ~1 km of the antipode; skip those.
            guard distance < .pi * Self.radius - 1000 else { continue }
            let solution = Self.sphere.inverse(from: try GeoCoordinate(latitude: lat1, longitude: lon1),
                                               to: try GeoCoordinate(latitude: lat2, longitude: lon2))
            #expect(abs(Angle.difference(from: bearing, to: solution.initialBearing)) < 1e-9)
            #expect(abs(solution.distance - distance) < 1e-6)
            checked += 1
        }
        #expect(checked > 1900)
    }
}
