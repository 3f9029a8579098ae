@testable import LodestoneLocation

/// The bundled table, tree and name list, built once for all geocoding tests.
enum BundledPlaces {
    static let table = try! PlaceTable.bundled()
    static let geocoder = PlaceGeocoder(table: table)
    static let search = PlaceSearch(table: table)
}
