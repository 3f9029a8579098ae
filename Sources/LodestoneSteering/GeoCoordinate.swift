/// A position on the WGS84 ellipsoid in degrees (geodetic latitude, longitude).
///
/// Validated on construction so that the geodesic code never sees a latitude
/// beyond a pole; longitudes may be any finite value (they are reduced modulo
/// 360° where used), so positions straight from a GNSS receiver or a config file
/// need no pre-processing.
public struct GeoCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// Geodetic latitude in degrees, north positive, in [-90, 90].
    public let latitude: Double
    /// Longitude in degrees, east positive, any finite value.
    public let longitude: Double

    public init(latitude: Double, longitude: Double) throws(SteeringInputError) {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw .latitudeOutOfRange(latitude)
        }
        guard longitude.isFinite else { throw .longitudeNotFinite(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// For results computed here, already known to be in range.
    init(unchecked latitude: Double, _ longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }
}
