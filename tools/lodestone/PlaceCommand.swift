import LodestoneCommandLine
import LodestoneLocation
import LodestoneLogs
import LodestoneSession
import LodestoneSteering

/// `lodestone place`: offline geocoding with the bundled GeoNames table, both ways.
enum PlaceCommand: Command {
    static let name = "place"
    static let summary = "Name the nearest populated place to a position, or find places by name (offline)."
    static let usage = "place --lat DEG --lon DEG | place NAME [--country CC] [--limit N] [--json]"
    static let discussion = """
        With --lat and --lon: the nearest populated place (GeoNames cities1000: places of
        1,000 people or more, bundled, no network), its country and administrative areas,
        and the geodesic distance and bearing from the position to it. With a NAME: places
        whose name starts with it, case- and accent-insensitive ("zur" finds Zürich), exact
        matches first, then by population; --country limits them to an ISO 3166 code (CH).
        Place data © GeoNames (geonames.org), CC BY 4.0.
        """
    static let options: [CommandLineOption] = [
        .value("lat", "DEG", "Latitude of the position to name."),
        .value("lon", "DEG", "Longitude of the position to name."),
        .value("country", "CC", "Search: only places in this country (ISO 3166-1 alpha-2)."),
        .value("limit", "N", "Search: at most N places (default 10)."),
        .flag("json", "Print JSON (one object per place, the LOCATION's place object)."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let name = try arguments.positionals(required: 0, optional: 1, "NAME").first
        let lat = try arguments.double("lat", in: -90...90), lon = try arguments.double("lon", in: -180...180)
        let json = arguments.flag("json")
        if let name {
            guard lat == nil, lon == nil else { throw UsageError("give a NAME to search for, or --lat and --lon to name a position, not both") }
            return try search(name, country: arguments.string("country"), limit: try arguments.integer("limit", minimum: 1) ?? 10, json: json)
        }
        guard let lat, let lon else { throw UsageError("give --lat and --lon (a position to name), or a NAME to search for") }
        if arguments.string("country") != nil || arguments.string("limit") != nil {
            throw UsageError("--country and --limit go with a NAME to search for")
        }
        let match = try PlaceGeocoder.bundled().nearest(to: try GeoCoordinate(latitude: lat, longitude: lon))
        print(json ? JSONLineBuilder.placeText(match) : describe(match.place) + ": " + BearingCommand.distance(match.distance)
              + ", bearing \(BearingCommand.fixed(BearingRounding.rounded(match.bearing, decimals: 0), 0))°")
        return .success
    }

    static func search(_ name: String, country: String?, limit: Int, json: Bool) throws -> ExitCode {
        if let country, country.count != 2 { throw UsageError("--country needs a two-letter ISO 3166 code such as CH, got '\(country)'") }
        let places = PlaceSearch(table: try PlaceTable.bundled()).places(matching: name, isoCountryCode: country?.uppercased(), limit: limit)
        guard !places.isEmpty else {
            Console.error("no place whose name starts with '\(name)'\(country.map { " in \($0.uppercased())" } ?? "")")
            return .badInput
        }
        for p in places {
            print(json ? line(p) : describe(p) + "  \(BearingCommand.fixed(p.coordinate.latitude, 5)), \(BearingCommand.fixed(p.coordinate.longitude, 5))  population \(p.population)")
        }
        return .success
    }

    static func describe(_ p: Place) -> String {
        ([p.name] + [p.subAdministrativeArea, p.administrativeArea].compactMap { $0 } + [p.country]).joined(separator: ", ")
    }

    static func line(_ place: Place) -> String {
        let j = JSONLineBuilder(capacity: 512)
        j.appendPlace(place)
        return String(j.text.dropLast())
    }
}
