import Testing
import LodestoneCore
@testable import LodestoneSteering

/// Fixed pairs checked against GeographicLib, an independent implementation.
///
/// Expected values: GeographicLib GeodSolve 2.1.2 (C. F. F. Karney, Debian
/// package geographiclib-tools), `GeodSolve -i -p 12` for the inverse and
/// `GeodSolve -p 12` for the direct problem, WGS84. Azimuths as GeodSolve
/// prints them, in [-180, 180].
@Suite struct GeodesicReferenceTests {
    static let angleTolerance = 1e-6   // degrees
    static let distanceTolerance = 1e-3  // metres

    struct InverseCase: Sendable, CustomTestStringConvertible {
        var name: String
        var lat1, lon1, lat2, lon2: Double
        var azi1, azi2, s12: Double
        var testDescription: String { name }
    }

    static let inverseCases: [InverseCase] = [
        .init(name: "short, 1 m, Berlin", lat1: 52.5, lon1: 13.4, lat2: 52.500007786318, lon2: 13.400007358431,
              azi1: 29.973962155414664, azi2: 29.973967993250781, s12: 1.0002127519),
        .init(name: "short, 1 m, Sydney", lat1: -33.8688, lon1: 151.2093, lat2: -33.868808459, lon2: 151.209296302,
              azi1: -159.964419121546030, azi2: -159.964417060676084, s12: 0.9987146059),
        .init(name: "long, JFK to Singapore", lat1: 40.6413, lon1: -73.7781, lat2: 1.3644, lon2: 103.9915,
              azi1: 3.305999961406743, azi2: 177.487712386541261, s12: 15346880.8065000046),
        .init(name: "long, Heathrow to Sydney", lat1: 51.47, lon1: -0.4543, lat2: -33.9461, lon2: 151.1772,
              azi1: 60.127242954970868, azi2: 139.323099736532754, s12: 17015614.2667495832),
        .init(name: "nearly antipodal, 0.5 short", lat1: 0, lon1: 0, lat2: 0.5, lon2: 179.5,
              azi1: 25.671872868291882, azi2: 154.327085469941608, s12: 19936288.5789653137),
        .init(name: "nearly antipodal, Vincenty fails", lat1: 0, lon1: 0, lat2: 0.5, lon2: 179.7,
              azi1: 15.556882793490542, azi2: 164.442513890854940, s12: 19944127.4207504578),
        .init(name: "nearly antipodal, mid latitude", lat1: -30, lon1: 0, lat2: 29.9, lon2: 179.8,
              azi1: 161.890524736326967, azi2: 18.090737245739501, s12: 19989832.8276095316),
        .init(name: "nearly antipodal, 1e-4 deg off", lat1: 30, lon1: 0, lat2: -30, lon2: 179.9999,
              azi1: 0.010962541065692, azi2: 179.989037458934320, s12: 20003931.4577023946),
        .init(name: "nearly antipodal, across dateline", lat1: -30.123, lon1: 10, lat2: 30.123, lon2: -169.88,
              azi1: -166.710268725221312, azi2: -13.289731274778694, s12: 20002602.2919136994),
        .init(name: "equator, beyond (1-f)180: not along the equator", lat1: 0, lon1: 0, lat2: 0, lon2: 179.5,
              azi1: 55.966495140158635, azi2: 124.033504859841372, s12: 19980861.9088909626),
        .init(name: "equator, 179 deg: along the equator", lat1: 0, lon1: 0, lat2: 0, lon2: 179,
              azi1: 90, azi2: 90, s12: 19926188.8519959711),
        .init(name: "equator, 40 deg", lat1: 0, lon1: 10, lat2: 0, lon2: 50,
              azi1: 90, azi2: 90, s12: 4452779.6317309430),
        .init(name: "equator, west across dateline", lat1: 0, lon1: -170, lat2: 0, lon2: 170,
              azi1: -90, azi2: -90, s12: 2226389.8158654715),
        .init(name: "meridian, north", lat1: 10, lon1: 20, lat2: 60, lon2: 20,
              azi1: 0, azi2: 0, s12: 5548217.9862561403),
        .init(name: "meridian, across equator", lat1: -40, lon1: 30, lat2: 50, lon2: 30,
              azi1: 0, azi2: 0, s12: 9970376.0720346645),
        .init(name: "meridian, over the North Pole", lat1: 80, lon1: 0, lat2: 80, lon2: 180,
              azi1: 0, azi2: 180, s12: 2233651.7147516990),
        .init(name: "meridian, over the South Pole", lat1: -89, lon1: 45, lat2: -89, lon2: -135,
              azi1: 180, azi2: 0, s12: 223387.7298283997),
        .init(name: "from the North Pole", lat1: 90, lon1: 0, lat2: -45, lon2: 60,
              azi1: 120, azi2: 180, s12: 14986910.1072904672),
        .init(name: "from the South Pole", lat1: -90, lon1: 0, lat2: 10, lon2: -100,
              azi1: -100, azi2: 0, s12: 11107820.5625470951),
        .init(name: "22 m over the pole", lat1: 89.9999, lon1: 0, lat2: 89.9999, lon2: 180,
              azi1: 0, azi2: 180, s12: 22.3387959126),
        .init(name: "across dateline, eastward", lat1: 10, lon1: 179.5, lat2: -5, lon2: -179.8,
              azi1: 177.289839199829657, azi2: 177.320637793524099, s12: 1660555.7268053642),
        .init(name: "across dateline, westward, short", lat1: -60, lon1: -179.99, lat2: -60.01, lon2: 179.99,
              azi1: -134.964778038385759, azi2: -134.947456657601379, s12: 1576.8170004363),
        .init(name: "meridional through pole, tiny longitude", lat1: 5, lon1: 0.00000000000001, lat2: 10, lon2: 180,
              azi1: 0.000000000000038, azi2: 179.999999999999972, s12: 18345191.1743327118),
        .init(name: "antipodal but for 1e-13 deg of latitude", lat1: 0, lon1: 0, lat2: 0.0000000000001, lon2: 180,
              azi1: 0, azi2: 180, s12: 20003931.4586254358),
        .init(name: "longitude outside [-180, 180]", lat1: 45, lon1: 370, lat2: -45, lon2: -10.5,
              azi1: -165.594806328976460, azi2: -165.594806328976460, s12: 10173072.2852859087),
    ]

    @Test(arguments: inverseCases)
    func inverseMatchesGeodSolve(_ c: InverseCase) throws {
        let start = try GeoCoordinate(latitude: c.lat1, longitude: c.lon1)
        let end = try GeoCoordinate(latitude: c.lat2, longitude: c.lon2)
        let solution = Geodesic.wgs84.inverse(from: start, to: end)
        #expect(abs(Angle.difference(from: c.azi1, to: solution.initialBearing)) <= Self.angleTolerance)
        #expect(abs(Angle.difference(from: c.azi2, to: solution.finalBearing)) <= Self.angleTolerance)
        #expect(abs(solution.distance - c.s12) <= Self.distanceTolerance)
        #expect(solution.initialBearing >= 0 && solution.initialBearing < 360)
        #expect(solution.finalBearing >= 0 && solution.finalBearing < 360)
    }

    /// GeodSolve gives 180°, 180°, 0 m for `10 20 10 20` and -0°, -180°, 0 m for
    /// `90 30 90 -150`; both are one point, for which we document bearings of 0°.
    @Test func coincidentPointsHaveZeroDistanceAndNorthBearing() throws {
        let pairs: [(Double, Double, Double, Double)] = [(10, 20, 10, 20), (90, 30, 90, -150), (-90, 0, -90, 50), (0, -180, 0, 180)]
        for (lat1, lon1, lat2, lon2) in pairs {
            let solution = Geodesic.wgs84.inverse(from: try GeoCoordinate(latitude: lat1, longitude: lon1),
                                                  to: try GeoCoordinate(latitude: lat2, longitude: lon2))
            #expect(solution == Geodesic.InverseSolution(initialBearing: 0, finalBearing: 0, distance: 0))
        }
    }

    struct DirectCase: Sendable {
        var lat1, lon1, azi1, s12: Double
        var lat2, lon2, azi2: Double
    }

    static let directCases: [DirectCase] = [
        .init(lat1: 52.5, lon1: 13.4, azi1: 30, s12: 1,
              lat2: 52.500007782620642, lon2: 13.400007362661901, azi2: 30.000005841192714),
        .init(lat1: 10, lon1: 20, azi1: 45, s12: 15000000,
              lat2: 21.752733967691054, lon2: 167.163264914661113, azi2: 131.454332552301054),
        .init(lat1: 80, lon1: 0, azi1: 0, s12: 3000000,
              lat2: 73.135040618321582, lon2: 180, azi2: 180),
        .init(lat1: -90, lon1: 0, azi1: 45, s12: 1000000,
              lat2: -81.046232815950617, lon2: 44.999999999999993, azi2: 0),
        .init(lat1: 0, lon1: 0, azi1: 90, s12: 20000000,
              lat2: 0, lon2: 179.663056823904299, azi2: 90),
        .init(lat1: -45, lon1: 170, azi1: 100, s12: 5000000,
              lat2: -35.976138017549324, lon2: -130.851041276652637, azi2: 59.422378870279182),
        .init(lat1: 0, lon1: 0, azi1: 270, s12: -1000,
              lat2: 0, lon2: 0.008983152841195, azi2: -90),
    ]

    @Test func directMatchesGeodSolve() throws {
        for c in Self.directCases {
            let solution = try Geodesic.wgs84.direct(from: try GeoCoordinate(latitude: c.lat1, longitude: c.lon1),
                                                     bearing: c.azi1, distance: c.s12)
            // 1e-9° of latitude or longitude is about 0.1 mm.
            #expect(abs(solution.destination.latitude - c.lat2) <= 1e-9, "\(c)")
            #expect(abs(Angle.difference(from: c.lon2, to: solution.destination.longitude)) <= 1e-9, "\(c)")
            #expect(abs(Angle.difference(from: c.azi2, to: solution.finalBearing)) <= Self.angleTolerance, "\(c)")
        }
    }

    @Test func directRejectsNonFiniteInput() throws {
        let start = try GeoCoordinate(latitude: 0, longitude: 0)
        #expect(throws: SteeringInputError.notFinite(name: "distance", value: .infinity)) {
            try Geodesic.wgs84.direct(from: start, bearing: 0, distance: .infinity)
        }
        #expect(throws: SteeringInputError.self) {
            try Geodesic.wgs84.direct(from: start, bearing: .nan, distance: 1)
        }
    }
}
