import LodestoneCore
import LodestoneLocation
import LodestonePosition
import Testing

/// Lines as gpsd 3.22 (Debian 12) sent them while gpsfake replayed an NMEA track.
@Suite struct GPSDReportTests {
    /// When the line arrived (stands for the time of a fix that has none).
    static let arrival = 1_800_000_000.0

    func parse(_ line: String) -> GPSDReport? { GPSDReport.parse(line, receivedAt: Self.arrival) }

    @Test func tpvWithAFixKeepsEverythingGpsdGives() throws {
        let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-11-30T12:00:01.000Z","ept":0.005,"lat":52.512000000,"lon":13.327000000,"altHAE":74.0000,"altMSL":34.0000,"alt":34.0000,"epx":9.5,"epy":12.25,"epv":20.1,"track":45.0000,"magtrack":49.0356,"magvar":4.0,"speed":1.286,"climb":0.000,"eps":0.8,"epd":3.5,"epc":1.5,"geoidSep":40.000,"eph":17.100}"#
        let expected = Location(latitude: 52.512, longitude: 13.327, altitude: 34, ellipsoidalAltitude: 74, horizontalAccuracy: 17.1,
                                verticalAccuracy: 20.1, speed: 1.286, speedAccuracy: 0.8, course: 45, courseAccuracy: 3.5,
                                timestamp: WallClockTime.parse("2026-11-30T12:00:01Z")!)
        #expect(parse(line) == .fix(expected))
    }

    @Test func withoutEphTheLargerOfEpxAndEpyIsTheHorizontalAccuracy() {
        guard case .fix(let f) = parse(#"{"class":"TPV","mode":2,"lat":1,"lon":2,"epx":3,"epy":7}"#) else {
            Issue.record("no fix")
            return
        }
        #expect(f.horizontalAccuracy == 7 && f.altitude == nil && f.ellipsoidalAltitude == nil && f.timestamp == Self.arrival)
    }

    @Test func oldGpsdWithoutAltHAEGivesAltAboveSeaLevel() {
        let line = #"{"class":"TPV","mode":3,"lat":-33.86,"lon":151.21,"alt":12.5}"#
        #expect(parse(line) == .fix(Location(latitude: -33.86, longitude: 151.21, altitude: 12.5, timestamp: Self.arrival)))
        let flat = #"{"class":"TPV","mode":2,"lat":-33.86,"lon":151.21,"alt":12.5}"#
        #expect(parse(flat) == .fix(Location(latitude: -33.86, longitude: 151.21, timestamp: Self.arrival)), "a 2D fix has no altitude")
    }

    @Test func noFixAndOtherClasses() {
        #expect(parse(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#) == .noFix(mode: 1))
        #expect(parse(#"{"class":"TPV","mode":3,"lat":95,"lon":0}"#) == .noFix(mode: 3))
        #expect(parse(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#) == .version(release: "3.22"))
        #expect(parse(#"{"class":"ERROR","message":"Unrecognized request 'FOO'"}"#) == .error(message: "Unrecognized request 'FOO'"))
        #expect(parse(#"{"class":"SKY","satellites":[]}"#) == .other("SKY"))
        #expect(parse("not json") == nil)
        #expect(parse(#"{"mode":3}"#) == nil)
    }

    /// Issue 13's crash: a huge or fractional mode was converted to Int blindly.
    @Test func anOutOfRangeModeIsNoFixNotATrap() {
        #expect(parse(#"{"class":"TPV","mode":1e300,"lat":52,"lon":13}"#) == .noFix(mode: 0))
        #expect(parse(#"{"class":"TPV","mode":-1e300,"lat":52,"lon":13}"#) == .noFix(mode: 0))
        #expect(parse(#"{"class":"TPV","mode":2.5,"lat":52,"lon":13}"#) == .noFix(mode: 0))
        #expect(parse(#"{"class":"TPV","mode":"3","lat":52,"lon":13}"#) == .noFix(mode: 0))
    }

    @Test func invalidNumbersAreDropped() {
        let line = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"speed":-1,"track":400,"eph":-3,"altHAE":1e300,"time":"yesterday"}"#
        guard case .fix(let f) = parse(line) else { Issue.record("no fix"); return }
        #expect(f.speed == nil && f.course == nil && f.horizontalAccuracy == nil && f.ellipsoidalAltitude == nil && f.timestamp == Self.arrival)
        guard case .fix(let g) = parse(#"{"class":"TPV","mode":3,"lat":1,"lon":2,"track":360}"#) else { return }
        #expect(g.course == 0, "360° is north, kept in [0, 360)")
    }
}
