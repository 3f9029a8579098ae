import LodestoneSteering

/// A populated place, named as `CLPlacemark` names its parts.
public struct Place: Sendable, Hashable {
    /// The place's name (GeoNames `name`, in its local Latin spelling).
    public var name: String
    /// ISO 3166-1 alpha-2, e.g. "CH".
    public var isoCountryCode: String
    /// The country's English name.
    public var country: String
    /// First-level division (state, canton, region); nil where GeoNames has none.
    public var administrativeArea: String?
    /// Second-level division (county, district); nil where GeoNames has none.
    public var subAdministrativeArea: String?
    public var coordinate: GeoCoordinate
    public var population: Int
}

/// The answer to a reverse lookup: the nearest place and how far it is.
public struct PlaceMatch: Sendable, Hashable {
    public var place: Place
    /// Geodesic distance (WGS 84) from the position asked about, metres.
    public var distance: Double
    /// Initial bearing from the position asked about to the place, degrees from true north, [0, 360).
    public var bearing: Double
}
