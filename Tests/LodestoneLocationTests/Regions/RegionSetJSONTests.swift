import Testing
import LodestoneJSON
import LodestoneSteering
@testable import LodestoneLocation

@Suite struct RegionSetJSONTests {
    static func decode(_ text: String, maximumRegions: Int = 20) throws(RegionSetError) -> RegionSet {
        try RegionSet(json: Array(text.utf8), maximumRegions: maximumRegions)
    }

    static func error(_ text: String, maximumRegions: Int = 20) -> RegionSetError? {
        do {
            _ = try decode(text, maximumRegions: maximumRegions)
            return nil
        } catch {
            return error
        }
    }

    @Test func roundTripIsExact() throws {
        var monitor = try RegionMonitor()
        let home = try CircularRegion(identifier: "home ✓", center: try GeoCoordinate(latitude: 52.516_272_1, longitude: 13.377_722_3),
                                      radius: 100.25, dwellTime: 60)
        let work = try CircularRegion(identifier: "work \"B\"", center: try GeoCoordinate(latitude: -33.1 / 3, longitude: 0.1 + 0.2),
                                      radius: 1e-3, notifyOnEntry: false, notifyOnExit: true)
        try monitor.startMonitoring(home)
        try monitor.startMonitoring(work)
        _ = monitor.update(with: Location(latitude: 52.516_272_1, longitude: 13.377_722_3, timestamp: 1_780_000_000.125))
        let set = monitor.snapshot
        let bytes = try set.jsonBytes()
        let back = try RegionSet(json: bytes)
        #expect(back == set)
        #expect(back.entries[0].state == .inside && back.entries[0].insideSince == 1_780_000_000.125)
        #expect(back.entries[1].state == .outside && back.entries[1].region.notifyOnEntry == false)
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("}\n"))
    }

    @Test func defaultsForOptionalFields() throws {
        let set = try Self.decode(#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":3}]}"#)
        let entry = try #require(set.entries.first)
        #expect(entry.region.notifyOnEntry && entry.region.notifyOnExit && entry.region.dwellTime == nil)
        #expect(entry.state == .unknown && entry.insideSince == nil)
    }

    @Test func restoredMonitorReportsAnExitThatHappenedWhileDown() throws {
        let saved = try Self.decode("""
            {"formatVersion":1,"regions":[{"identifier":"a","latitude":10,"longitude":20,"radius":50,
             "state":"inside","insideSince":100,"dwellReported":true}]}
            """)
        var monitor = try RegionMonitor(restoring: saved)
        let events = monitor.update(with: Location(latitude: 10.01, longitude: 20, timestamp: 200))
        guard case .exited("a", 200, _)? = events.first else {
            Issue.record("\(events)")
            return
        }
    }

    @Test(arguments: [
        ("", "the region file is not valid JSON: the file is empty"),
        ("{\"formatVersion\":1,", "the region file is not valid JSON"),
        (#"{"regions":[]}"#, "field formatVersion is missing"),
        (#"{"formatVersion":2,"regions":[]}"#, "field formatVersion: 2 is not supported"),
        (#"{"formatVersion":1}"#, "field regions is missing"),
        (#"{"formatVersion":1,"regions":{}}"#, "field regions must be an array, not an object"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":91,"longitude":2,"radius":3}]}"#,
         "field regions[0].latitude: region latitude 91.0 is out of range"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":3},{"identifier":"b","latitude":1,"longitude":-181,"radius":3}]}"#,
         "field regions[1].longitude: region longitude -181.0 is out of range"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":"nan"}]}"#,
         "field regions[0].radius: region radius nan is out of range"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":0}]}"#,
         "field regions[0].radius: region radius 0.0 is out of range"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":5,"dwellTime":-1}]}"#,
         "field regions[0].dwellTime: region dwellTime -1.0 is out of range"),
        (#"{"formatVersion":1,"regions":[{"identifier":"","latitude":1,"longitude":2,"radius":5}]}"#,
         "field regions[0].identifier: a region needs a non-empty identifier"),
        (#"{"formatVersion":1,"regions":[{"identifier":7,"latitude":1,"longitude":2,"radius":5}]}"#,
         "field regions[0].identifier must be a string, not a number"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":5,"state":"maybe"}]}"#,
         "field regions[0].state: must be unknown, inside, outside, not \"maybe\""),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":5,"notifyOnExit":"yes"}]}"#,
         "field regions[0].notifyOnExit must be true or false, not a string"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":5},{"identifier":"a","latitude":3,"longitude":4,"radius":5}]}"#,
         "regions regions[0] and regions[1] share the identifier 'a'"),
        (#"{"formatVersion":1,"regions":[{"identifier":"a","latitude":1,"longitude":2,"radius":2000000}]}"#,
         "field regions[0].radius: region radius 2000000.0 is out of range"),
    ])
    func badFilesAreRefusedNamingTheField(text: String, message: String) {
        let error = Self.error(text)
        #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func tooManyRegions() {
        let regions = (0..<3).map { #"{"identifier":"r\#($0)","latitude":1,"longitude":2,"radius":5}"# }.joined(separator: ",")
        #expect(Self.error(#"{"formatVersion":1,"regions":[\#(regions)]}"#, maximumRegions: 2) == .tooManyRegions(count: 3, limit: 2))
        #expect(throws: RegionSetError.tooManyRegions(count: 3, limit: 2)) {
            try RegionMonitor(restoring: try Self.decode(#"{"formatVersion":1,"regions":[\#(regions)]}"#), settings: .init(maximumRegions: 2))
        }
    }
}
