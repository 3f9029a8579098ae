import LodestoneCommandLine
import LodestoneJSON
import LodestoneSession
import Testing
@testable import LodestoneService

/// The location keys of serve's config file and flags: `regions`, `track`, `position.log`.
@Suite struct LocationConfigurationTests {
    func apply(_ json: String) throws -> ServiceConfiguration {
        try ServiceConfiguration().applying(json: JSONParser.parse(json), baseDirectory: "/etc/lodestone")
    }

    func message(_ json: String) -> String? {
        do {
            _ = try apply(json)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func keysAreAppliedAndPathsResolved() throws {
        let c = try apply(#"{"regions":{"file":"regions.json","max":5,"minimumMargin":25},"track":{"maxPoints":1000},"position":{"log":"drive.gpx","logSpeed":"max","logLoop":true}}"#)
        #expect(c.location.regionsFile == "/etc/lodestone/regions.json" && c.location.maxRegions == 5 && c.location.regionMargin == 25)
        #expect(c.location.maxTrackPoints == 1000 && c.location.session.maximumRoutePoints == 1000 && c.location.session.regions.maximumRegions == 5)
        #expect(c.heading.position == .replay(PositionReplay(path: "/etc/lodestone/drive.gpx", speed: nil, loop: true)))
        #expect(try apply(#"{"regions":{"file":null}}"#).location.regionsFile == nil)
        #expect(ServiceConfiguration().location.regionsFile == "regions.json")
    }

    @Test func badValuesNameTheirKey() {
        #expect(message(#"{"regions":{"max":0}}"#)?.contains("regions.max") == true)
        #expect(message(#"{"regions":{"minimumMargin":-1}}"#)?.contains("regions.minimumMargin") == true)
        #expect(message(#"{"regions":{"file":""}}"#)?.contains("regions.file") == true)
        #expect(message(#"{"regions":{"fiel":"x"}}"#)?.contains("regions.fiel") == true)
        #expect(message(#"{"track":{"maxPoints":0}}"#)?.contains("track.maxPoints") == true)
        #expect(message(#"{"position":{"log":"a.gpx","gpsd":true}}"#)?.contains("give one of") == true)
        #expect(message(#"{"position":{"logSpeed":2}}"#)?.contains("position.logSpeed") == true)
        #expect(message(#"{"position":{"log":"a.gpx","logSpeed":-1}}"#)?.contains("position.logSpeed") == true)
    }

    @Test func flags() throws {
        let options = ServeCommandLine.options
        let a = try CommandLineArguments(["--regions-file", "none", "--position-log", "t.nmea", "--position-speed", "4", "--position-loop"], options: options)
        let c = try ServeCommandLine.configuration(a)
        #expect(c.location.regionsFile == nil && c.heading.position == .replay(PositionReplay(path: "t.nmea", speed: 4, loop: true)))
        let both = try CommandLineArguments(["--position-log", "t.nmea", "--gpsd", "localhost"], options: options)
        #expect(throws: UsageError.self) { try ServeCommandLine.configuration(both) }
        let stray = try CommandLineArguments(["--position-loop"], options: options)
        #expect(throws: UsageError.self) { try ServeCommandLine.configuration(stray) }
    }
}
