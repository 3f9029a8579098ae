import LodestoneSteering

/// Offline reverse geocoding: the populated place nearest to a position, with
/// its country and administrative areas. No network: the table is bundled.
///
/// "Nearest" is by the angle between the positions' directions from the
/// centre (their unit vectors): a great circle on a sphere through the
/// geodetic latitudes, which ranks places as the ellipsoid does except for
/// near-ties within a fraction of a percent. The distance and bearing reported
/// are geodesic, on WGS 84. A value type, safe to share across threads once built.
public struct PlaceGeocoder: Sendable {
    public let table: PlaceTable
    private let index: PlaceIndex

    /// Builds the search tree over `table` (tens of milliseconds for the bundled one).
    public init(table: PlaceTable) {
        self.table = table
        index = PlaceIndex(table: table)
    }

    /// A geocoder over the bundled GeoNames table.
    public static func bundled() throws(PlaceTableError) -> PlaceGeocoder {
        PlaceGeocoder(table: try PlaceTable.bundled())
    }

    /// The nearest place to `position`, with the distance and bearing to it.
    public func nearest(to position: GeoCoordinate) -> PlaceMatch {
        let i = nearestIndex(to: position)
        let place = table.place(at: i)
        let path = Geodesic.wgs84.inverse(from: position, to: place.coordinate)
        return PlaceMatch(place: place, distance: path.distance, bearing: path.initialBearing)
    }

    /// The table index of the nearest place: the search alone.
    public func nearestIndex(to position: GeoCoordinate) -> Int {
        index.nearest(PlaceIndex.unitVector(latitude: position.latitude, longitude: position.longitude)).place
    }
}
