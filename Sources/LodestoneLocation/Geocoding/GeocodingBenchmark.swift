#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneSteering

/// Timing of the place table: loading it and looking places up, for `lodestone
/// bench`. Run it from a release build; debug builds say nothing about speed.
///
/// Query points are fixed, not random: a Fibonacci lattice, evenly spread over
/// the whole sphere (mostly ocean, far from any place: the search visits the
/// most nodes there), and points 1–3 km from every 50th place (where a board is).
public enum GeocodingBenchmark {
    public struct Result: Sendable, CustomStringConvertible {
        /// Parsing the bundled table (fastest of the repetitions), ms.
        public var tableLoadMilliseconds: Double
        /// Building the nearest-place tree, ms.
        public var indexBuildMilliseconds: Double
        /// Building the name-search list, ms.
        public var searchBuildMilliseconds: Double
        /// Finding the nearest place's index, over the whole sphere / near places, ns per lookup.
        public var nearestNanosecondsSphere: Double
        public var nearestNanosecondsNearPlaces: Double
        /// A full reverse lookup (search, the place's strings, geodesic distance and bearing), ns.
        public var lookupNanoseconds: Double
        /// A prefix search of 3 letters, 10 results, µs.
        public var prefixSearchMicroseconds: Double
        public var places: Int
        /// Sum of the indices found; printed so the work cannot be optimised away.
        public var checksum: Int

        public var description: String {
            func r(_ v: Double) -> String { String(Double(Int(v * 10 + 0.5)) / 10) }
            return """
                place table: \(places) places; load \(r(tableLoadMilliseconds)) ms, nearest-place tree \(r(indexBuildMilliseconds)) ms, \
                name list \(r(searchBuildMilliseconds)) ms
                nearest place: \(r(nearestNanosecondsSphere)) ns (anywhere on Earth), \(r(nearestNanosecondsNearPlaces)) ns (near places); \
                full lookup with geodesic distance \(r(lookupNanoseconds)) ns; prefix search \(r(prefixSearchMicroseconds)) µs \
                (checksum \(checksum))
                """
        }
    }

    public static func run(queries: Int = 100_000, repetitions: Int = 3) throws(PlaceTableError) -> Result {
        let clock = ContinuousClock()
        var table: PlaceTable?
        var load = Double.infinity
        for _ in 0..<max(1, repetitions) {
            let start = clock.now
            table = try PlaceTable(.literal(PlaceTable.geoNamesText))
            load = min(load, milliseconds(clock.now - start))
        }
        guard let table else { throw PlaceTableError(line: 0, message: "no repetitions") }
        var start = clock.now
        let geocoder = PlaceGeocoder(table: table)
        let build = milliseconds(clock.now - start)
        start = clock.now
        let search = PlaceSearch(table: table)
        let searchBuild = milliseconds(clock.now - start)

        let sphere = lattice(count: queries)
        let near = nearPlaces(table, every: 50)
        var checksum = 0
        let sphereTime = time(clock) { for p in sphere { checksum &+= geocoder.nearestIndex(to: p) } } / Double(sphere.count)
        let nearTime = time(clock) { for p in near { checksum &+= geocoder.nearestIndex(to: p) } } / Double(near.count)
        let lookups = sphere.prefix(20_000)
        let lookupTime = time(clock) { for p in lookups { checksum &+= Int(geocoder.nearest(to: p).distance) } } / Double(lookups.count)
        let prefixes = ["ber", "par", "san", "zur", "mos", "tok", "lon", "new", "cap", "sao"]
        let prefixTime = time(clock) {
            for _ in 0..<20 { for p in prefixes { checksum &+= search.places(matching: p).count } }
        } / Double(20 * prefixes.count) / 1000
        return Result(tableLoadMilliseconds: load, indexBuildMilliseconds: build, searchBuildMilliseconds: searchBuild,
                      nearestNanosecondsSphere: sphereTime, nearestNanosecondsNearPlaces: nearTime, lookupNanoseconds: lookupTime,
                      prefixSearchMicroseconds: prefixTime, places: table.count, checksum: checksum)
    }

    /// `count` points evenly over the sphere (the Fibonacci lattice).
    static func lattice(count: Int) -> [GeoCoordinate] {
        let goldenAngle = 180 * (3 - 5.0.squareRoot())
        return (0..<count).compactMap { i in
            let z = 1 - 2 * (Double(i) + 0.5) / Double(count)
            let longitude = (Double(i) * goldenAngle).truncatingRemainder(dividingBy: 360) - 180
            return try? GeoCoordinate(latitude: asin(z) * 180 / .pi, longitude: longitude)
        }
    }

    /// Points 1–3 km from every `every`-th place, in changing directions.
    static func nearPlaces(_ table: PlaceTable, every: Int) -> [GeoCoordinate] {
        stride(from: 0, to: table.count, by: every).compactMap { i in
            try? Geodesic.wgs84.direct(from: table.coordinate(of: i), bearing: Double(i % 360),
                                       distance: 1000 + Double(i % 2000)).destination
        }
    }

    private static func time(_ clock: ContinuousClock, _ work: () -> Void) -> Double {
        let start = clock.now
        work()
        let d = (clock.now - start).components
        return Double(d.seconds) * 1e9 + Double(d.attoseconds) / 1e9
    }

    private static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    }
}
