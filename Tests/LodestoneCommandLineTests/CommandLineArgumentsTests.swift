import LodestoneCommandLine
import Testing

@Suite struct CommandLineArgumentsTests {
    let options: [CommandLineOption] = [
        .value("lat", "DEG", "Latitude."),
        .value("heading-filter", "DEG", "Filter."),
        .value("rate", "HZ", "Rate."),
        .flag("verbose", short: "v", "More."),
        .repeatableValue("magnet", "START,END,X,Y,Z", "A magnet."),
    ]

    func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
        try CommandLineArguments(arguments, options: options)
    }

    func failure(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func valuesFlagsAndPositionals() throws {
        let a = try parse(["log.csv", "--lat", "-33.86", "--heading-filter=2.5", "-v", "-", "--", "--rate"])
        #expect(try a.double("lat") == -33.86, "a value starting with '-' is taken verbatim")
        #expect(try a.double("heading-filter") == 2.5)
        #expect(a.flag("verbose") && !a.flag("missing"))
        #expect(a.positionals == ["log.csv", "-", "--rate"], "a lone '-' is standard input; '--' ends the options")
        #expect(try a.double("rate") == nil)
    }

    @Test func mistakesAreNamed() {
        #expect(failure(["--headingfilter", "2"]) == "unknown option '--headingfilter'; did you mean --heading-filter?")
        #expect(failure(["--zzz"]) == "unknown option '--zzz'")
        #expect(failure(["-x"]) == "unknown option '-x'")
        #expect(failure(["--verbose=yes"]) == "option --verbose takes no value")
        #expect(failure(["--rate"]) == "option --rate needs a value (HZ)")
    }

    /// A value silently replaced is a setting the user believes in and does not get.
    @Test func anOptionGivenTwiceIsRefusedUnlessRepeatable() throws {
        #expect(failure(["--rate", "50", "--rate=100"]) == "--rate is given twice ('50', then '100'); give it once")
        let a = try parse(["--magnet", "1,2,3,4,5", "--rate", "50", "--magnet=6,7,8,9,10"])
        #expect(a.strings("magnet") == ["1,2,3,4,5", "6,7,8,9,10"])
        #expect(a.strings("rate").isEmpty && a.strings("lat").isEmpty, "only a repeatable option's values are listed")
    }

    @Test func numbersAreCheckedWithTheOptionNamed() throws {
        let a = try parse(["--rate", "fast", "--lat", "95"])
        #expect(throws: UsageError.self) { try a.double("rate") }
        do {
            _ = try a.double("lat", in: -90...90)
            Issue.record("95 passed as a latitude")
        } catch {
            #expect(error.description == "--lat must be between -90.0 and 90.0, got 95.0")
        }
        do {
            _ = try a.integer("rate", minimum: 1)
            Issue.record("'fast' passed as a whole number")
        } catch {
            #expect(error.description == "--rate needs a whole number ≥ 1, got 'fast'")
        }
    }

    @Test func positionalCounts() throws {
        let a = try parse(["a", "b"])
        #expect(try a.positionals(required: 1, optional: 1, "FILE [OUT]") == ["a", "b"])
        #expect(throws: UsageError.self) { try a.positionals(required: 1, "FILE") }
        #expect(throws: UsageError.self) { try parse([]).positionals(required: 1, "FILE") }
    }

    @Test func closestNameIgnoresCaseAndFarNames() {
        #expect(ClosestName.closest(to: "headingfilter", among: ["headingFilter", "position"]) == "headingFilter")
        #expect(ClosestName.closest(to: "nmea", among: ["headingFilter", "position"]) == nil)
        #expect(ClosestName.editDistance("kitten", "sitting") == 3)
        #expect(ClosestName.editDistance("", "abc") == 3)
    }

    @Test func helpListsEveryOptionAndHelp() {
        let text = CommandHelp.text(usage: "replay FILE", summary: "Replays.", discussion: "", options: options)
        #expect(text.hasPrefix("Usage: lodestone replay FILE\n\nReplays.\n\nOptions:\n"))
        for line in ["--lat DEG", "--heading-filter DEG", "-v, --verbose", "-h, --help"] {
            #expect(text.contains(line), "\(line) missing from:\n\(text)")
        }
    }
}
