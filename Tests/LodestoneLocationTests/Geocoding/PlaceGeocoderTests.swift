import Foundation
import Testing
import LodestoneSimulation
import LodestoneSteering
import LodestoneTestSupport
@testable import LodestoneLocation

@Suite struct PlaceGeocoderTests {
    /// The angle between two positions by the haversine formula: independent of the
    /// unit vectors and the tree.
    static func haversine(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
        let h = pow(sin(dp / 2), 2) + cos(p1) * cos(p2) * pow(sin(dl / 2), 2)
        return 2 * asin(min(1, h.squareRoot()))
    }

    @Test func bundledTableIsComplete() {
        let table = BundledPlaces.table
        #expect(table.count == 155_210)
        #expect(table.countries.count > 240)
        let zurich = BundledPlaces.search.places(matching: "Zürich", isoCountryCode: "CH", limit: 1).first
        #expect(zurich?.administrativeArea == "Zurich" && zurich?.country == "Switzerland")
    }

    /// The tree's answer equals a brute-force scan of every place, for points all over
    /// the globe (poles and the ±180° meridian included) and close to places.
    @Test func nearestMatchesBruteForce() throws {
        let table = BundledPlaces.table
        let coordinates = (0..<table.count).map { table.coordinate(of: $0) }
        // Haversine terms per place, computed once: φ in radians and cos φ.
        let phi = coordinates.map { $0.latitude * .pi / 180 }, cosPhi = phi.map { cos($0) }
        let lambda = coordinates.map { $0.longitude * .pi / 180 }
        var random = RandomSource(seed: 99)
        var queries = GeocodingBenchmark.lattice(count: 60)
        for _ in 0..<40 {
            let base = coordinates[Int(random.next() % UInt64(coordinates.count))]
            queries.append(try Geodesic.wgs84.direct(from: base, bearing: 360 * random.uniform(), distance: 20_000 * random.uniform()).destination)
        }
        queries += [try GeoCoordinate(latitude: 90, longitude: 0), try GeoCoordinate(latitude: -90, longitude: 123),
                    try GeoCoordinate(latitude: -16.5, longitude: 179.999), try GeoCoordinate(latitude: -16.5, longitude: -180)]
        for q in queries {
            let qPhi = q.latitude * .pi / 180, qCos = cos(qPhi), qLambda = q.longitude * .pi / 180
            var best = (index: -1, h: Double.infinity)
            for i in coordinates.indices {
                let a = sin((phi[i] - qPhi) / 2), b = sin((lambda[i] - qLambda) / 2)
                let h = a * a + qCos * cosPhi[i] * b * b
                if h < best.h { best = (i, h) }
            }
            let bestAngle = 2 * asin(min(1, best.h.squareRoot()))
            let found = BundledPlaces.geocoder.nearestIndex(to: q)
            let foundAngle = Self.haversine(q, coordinates[found])
            // Same place, or a tie within 1e-12 rad (6 µm): the two formulas round differently.
            #expect(found == best.index || foundAngle - bestAngle < 1e-12, "\(q): tree \(table.name(of: found)), scan \(table.name(of: best.index))")
        }
    }

    /// Nearest places computed by the table's generator in Python, by brute force over
    /// the source data: a check from outside this code.
    @Test func nearestMatchesTheGeneratorsAnswers() throws {
        let url = SharedData.packageRoot.appendingPathComponent("Tests/LodestoneLocationTests/Fixtures/places-nearest.tsv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count > 250)
        for line in lines {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let q = try GeoCoordinate(latitude: Double(f[0])!, longitude: Double(f[1])!)
            let match = BundledPlaces.geocoder.nearest(to: q)
            #expect(match.place.name == f[2] && match.place.isoCountryCode == f[3] && (match.place.administrativeArea ?? "") == f[4],
                    "\(f[0]), \(f[1]): got \(match.place.name), \(match.place.isoCountryCode); generator: \(f[2]), \(f[3])")
        }
    }

    @Test(arguments: [
        (46.0207, 7.7491, "Zermatt", "CH", "Switzerland", "Valais", "Visp District"),
        (64.1466, -21.9426, "Reykjavík", "IS", "Iceland", "Capital Region", "Reykjavíkurborg"),
        (-54.8019, -68.3030, "Ushuaia", "AR", "Argentina", "Tierra del Fuego", "Departamento de Ushuaia"),
        (78.2232, 15.6267, "Longyearbyen", "SJ", "Svalbard and Jan Mayen", "Svalbard", "Spitsbergen"),
        (21.3069, -157.8583, "Honolulu", "US", "United States", "Hawaii", "Honolulu County"),
    ])
    func knownPlaces(latitude: Double, longitude: Double, name: String, code: String, country: String, area: String, subArea: String) throws {
        let match = BundledPlaces.geocoder.nearest(to: try GeoCoordinate(latitude: latitude, longitude: longitude))
        #expect(match.place.name == name && match.place.isoCountryCode == code && match.place.country == country)
        #expect(match.place.administrativeArea == area && match.place.subAdministrativeArea == subArea)
        #expect(match.distance < 5000)
        let path = Geodesic.wgs84.inverse(from: try GeoCoordinate(latitude: latitude, longitude: longitude), to: match.place.coordinate)
        #expect(match.distance == path.distance && match.bearing == path.initialBearing)
    }

    /// A point in mid-Pacific gets a far place and says how far.
    @Test func remotePositionReportsTheDistance() throws {
        let match = BundledPlaces.geocoder.nearest(to: try GeoCoordinate(latitude: -48.876, longitude: -123.393))  // Point Nemo
        #expect(match.distance > 2_000_000)
    }
}
