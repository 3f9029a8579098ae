import LodestoneSession

extension TrueNorth.Settings {
    /// The fixed position given by --lat/--lon/--alt-m, if any.
    var fixedPosition: (latitude: Double, longitude: Double, height: Double)? {
        if case let .fixed(lat, lon, h) = position { return (lat, lon, h) }
        return nil
    }
}
