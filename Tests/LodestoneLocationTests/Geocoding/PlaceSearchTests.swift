import Testing
@testable import LodestoneLocation

@Suite struct PlaceSearchTests {
    static func first(_ text: String, country: String? = nil) -> Place? {
        BundledPlaces.search.places(matching: text, isoCountryCode: country, limit: 1).first
    }

    @Test func caseAndAccentsDoNotMatter() {
        for query in ["Zürich", "zurich", "ZÜRICH", "Zu\u{308}rich", "zür"] {
            #expect(Self.first(query)?.name == "Zürich", "\(query)")
        }
        #expect(Self.first("sao paulo")?.name == "São Paulo")
        #expect(Self.first("SÃO PAULO")?.name == "São Paulo")
        #expect(Self.first("saint etienne")?.name == "Saint-Étienne")
        #expect(Self.first("Tromso")?.name == "Tromsø")
        #expect(Self.first("malmo")?.name == "Malmö")
        #expect(Self.first("reykjavik")?.name == "Reykjavík")
        #expect(Self.first("st louis", country: "US")?.name == "St. Louis")
    }

    @Test func biggestFirstAndExactNamesBeforeLonger() {
        let berlin = BundledPlaces.search.places(matching: "berlin", limit: 5)
        #expect(berlin.first?.name == "Berlin" && berlin.first?.isoCountryCode == "DE")
        // Exact "Paris" before "Parisian…" or bigger places starting with "Paris".
        let paris = BundledPlaces.search.places(matching: "paris", limit: 20)
        #expect(paris.first?.name == "Paris" && paris.first?.isoCountryCode == "FR")
        let exact = paris.prefix { PlaceSearchKey.fold($0.name, using: BundledPlaces.table.folds) == Array("paris".utf8) }
        #expect(exact.count > 1, "several places named Paris")
        #expect(zip(exact, exact.dropFirst()).allSatisfy { $0.population >= $1.population })
        // Places named exactly "Par" come first; the rest by population.
        let prefix = BundledPlaces.search.places(matching: "par", limit: 30)
        let longer = prefix.drop { PlaceSearchKey.fold($0.name, using: BundledPlaces.table.folds) == Array("par".utf8) }
        #expect(longer.count > 20)
        #expect(zip(longer, longer.dropFirst()).allSatisfy { $0.population >= $1.population })
        #expect(prefix.allSatisfy { PlaceSearchKey.fold($0.name, using: BundledPlaces.table.folds).starts(with: Array("par".utf8)) })
    }

    @Test func countryFilterAndLimits() {
        let texas = BundledPlaces.search.places(matching: "paris", isoCountryCode: "US", limit: 50)
        #expect(!texas.isEmpty && texas.allSatisfy { $0.isoCountryCode == "US" })
        #expect(BundledPlaces.search.places(matching: "a", limit: 3).count == 3)
        #expect(BundledPlaces.search.places(matching: "", limit: 3).isEmpty)
        #expect(BundledPlaces.search.places(matching: " -. ", limit: 3).isEmpty)
        #expect(BundledPlaces.search.places(matching: "zzzzqqq").isEmpty)
        #expect(BundledPlaces.search.places(matching: "berlin", limit: 0).isEmpty)
    }

    @Test func foldingRules() {
        let folds = BundledPlaces.table.folds
        func key(_ s: String) -> String { String(decoding: PlaceSearchKey.fold(s, using: folds), as: UTF8.self) }
        #expect(key("Saint-Étienne") == "saint etienne")
        #expect(key("St. Louis") == "st louis")
        #expect(key("  Taxtako‘pir  ") == "taxtakopir")
        #expect(key("Straße") == "strasse")
        #expect(key("Æbeltoft") == "aebeltoft")
        #expect(key("İstanbul") == "istanbul")
    }
}
