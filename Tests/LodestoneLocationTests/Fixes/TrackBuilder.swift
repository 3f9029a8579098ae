import LodestoneSteering
@testable import LodestoneLocation

/// Fixes along a geodesic, built with the direct problem, so that distances between
/// them are known exactly (steps along one geodesic add up).
struct TrackBuilder {
    var origin: GeoCoordinate
    var bearing: Double
    var startTime: Double = 1_780_000_000

    init(latitude: Double = 52.5, longitude: Double = 13.4, bearing: Double = 30) {
        origin = try! GeoCoordinate(latitude: latitude, longitude: longitude)
        self.bearing = bearing
    }

    /// The point `metres` along the geodesic.
    func coordinate(at metres: Double) -> GeoCoordinate {
        try! Geodesic.wgs84.direct(from: origin, bearing: bearing, distance: metres).destination
    }

    /// A fix `metres` along the geodesic at `startTime + seconds`.
    func fix(at metres: Double, seconds: Double, accuracy: Double? = 5) -> Location {
        let c = coordinate(at: metres)
        return Location(latitude: c.latitude, longitude: c.longitude, horizontalAccuracy: accuracy,
                        timestamp: startTime + seconds)
    }
}
