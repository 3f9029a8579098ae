import Testing
import LodestoneCore
import LodestoneSimulation
@testable import LodestoneSteering

@Suite struct BearingRoundingTests {
    /// 52.5, 13.4 → −52.5, −166.6 is antipodal but for the rounding of the decimal
    /// longitudes; GeodSolve and our solution give an azimuth of about −8e-13°, which
    /// used to become 359.99999999999915° and print as 360.000.
    @Test func antipodeBearingsAreInRangeAndPrintBelow360() throws {
        let pairs: [(Double, Double, Double, Double)] = [
            (52.5, 13.4, -52.5, -166.6), (0, 0, 0, 180), (10, 20, -10, -160), (-33.8688, 151.2093, 33.8688, -28.7907),
            (51.47, -0.4543, -51.47, 179.5457), (90, 0, -90, 0), (45.1, 7.7, -45.1, -172.3),
        ]
        for (lat1, lon1, lat2, lon2) in pairs {
            let s = Geodesic.wgs84.inverse(from: try GeoCoordinate(latitude: lat1, longitude: lon1),
                                           to: try GeoCoordinate(latitude: lat2, longitude: lon2))
            for bearing in [s.initialBearing, s.finalBearing] {
                #expect(bearing >= 0 && bearing < 360)
                for decimals in 0...9 {
                    #expect(BearingRounding.rounded(bearing, decimals: decimals) < 360, "\(lat1),\(lon1) → \(lat2),\(lon2)")
                }
                #expect(360 - bearing >= BearingRounding.snapToNorth, "\(bearing) would print as 360 at 9 decimals")
            }
        }
    }

    /// Many nearly antipodal pairs: no bearing lands within printing distance of 360.
    @Test func randomNearAntipodesNeverPrint360() throws {
        var random = RandomSource(seed: 14)
        for _ in 0..<2000 {
            let lat = random.uniform(-89, 89), lon = random.uniform(-180, 180)
            let start = try GeoCoordinate(latitude: lat, longitude: lon)
            let end = try GeoCoordinate(latitude: -lat + random.uniform(-1e-9, 1e-9),
                                        longitude: Angle.normalized180(lon + 180) + random.uniform(-1e-9, 1e-9))
            let s = Geodesic.wgs84.inverse(from: start, to: end)
            #expect(s.initialBearing < 360 - BearingRounding.snapToNorth && s.finalBearing < 360 - BearingRounding.snapToNorth)
        }
    }

    @Test func roundingWrapsAfterRounding() {
        #expect(BearingRounding.rounded(359.9996, decimals: 3) == 0)
        #expect(BearingRounding.rounded(359.9994, decimals: 3) == 359.999)
        #expect(BearingRounding.rounded(-0.0004, decimals: 3) == 0)
        #expect(BearingRounding.rounded(-0.0004, decimals: 3).sign == .plus)
        #expect(BearingRounding.rounded(359.5, decimals: 0) == 0)
        #expect(BearingRounding.rounded(720.25, decimals: 1) == 0.3)
        #expect(BearingRounding.normalized(-1e-13) == 0)
        #expect(BearingRounding.normalized(-1e-6) == 360 - 1e-6)
        #expect(BearingRounding.normalized(-0.0).sign == .plus)
    }
}
