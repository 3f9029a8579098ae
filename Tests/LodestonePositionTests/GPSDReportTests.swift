import LodestoneCore
import LodestonePosition
import Testing

/// Lines as gpsd 3.22 (Debian 12) sent them while gpsfake replayed an NMEA track.
@Suite struct GPSDReportTests {
    @Test func tpvWithAFixKeepsEverythingGpsdGives() throws {
        let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-11-30T12:00:01.000Z","ept":0.005,"lat":52.512000000,"lon":13.327000000,"altHAE":74.0000,"altMSL":34.0000,"alt":34.0000,"epx":9.5,"epy":12.25,"epv":20.1,"track":45.0000,"magtrack":49.0356,"magvar":4.0,"speed":1.286,"climb":0.000,"eps":0.8,"epd":3.5,"epc":1.5,"geoidSep":40.000,"eph":17.100}"#
        let expected = PositionFix(latitude: 52.512, longitude: 13.327, altitude: 74, altitudeMSL: 34, horizontalAccuracy: 17.1,
                                   verticalAccuracy: 20.1, speed: 1.286, speedAccuracy: 0.8, track: 45, trackAccuracy: 3.5,
                                   climb: 0, climbAccuracy: 1.5, time: WallClockTime.parse("2026-11-30T12:00:01Z")! + 0,
                                   timeAccuracy: 0.005, mode: .threeDimensional)
        #expect(GPSDReport.parse(line) == .fix(expected))
    }

    @Test func withoutEphTheLargerOfEpxAndEpyIsTheHorizontalAccuracy() {
        guard case .fix(let f) = GPSDReport.parse(#"{"class":"TPV","mode":2,"lat":1,"lon":2,"epx":3,"epy":7}"#) else {
            Issue.record("no fix")
            return
        }
        #expect(f.horizontalAccuracy == 7 && f.mode == .twoDimensional && f.altitude == nil)
    }

    @Test func oldGpsdWithoutAltHAEGivesAltAboveSeaLevel() {
        let line = #"{"class":"TPV","mode":2,"lat":-33.86,"lon":151.21,"alt":12.5}"#
        #expect(GPSDReport.parse(line) == .fix(PositionFix(latitude: -33.86, longitude: 151.21, altitudeMSL: 12.5, mode: .twoDimensional)))
        guard case .fix(let f) = GPSDReport.parse(line) else { return }
        #expect(f.modelHeight == 12.5)
    }

    @Test func noFixAndOtherClasses() {
        #expect(GPSDReport.parse(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#) == .noFix(mode: 1))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":3,"lat":95,"lon":0}"#) == .noFix(mode: 3))
        #expect(GPSDReport.parse(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#) == .version(release: "3.22"))
        #expect(GPSDReport.parse(#"{"class":"ERROR","message":"Unrecognized request 'FOO'"}"#) == .error(message: "Unrecognized request 'FOO'"))
        #expect(GPSDReport.parse(#"{"class":"SKY","satellites":[]}"#) == .other("SKY"))
        #expect(GPSDReport.parse("not json") == nil)
        #expect(GPSDReport.parse(#"{"mode":3}"#) == nil)
    }

    /// Issue 13's crash: a huge or fractional mode was converted to Int blindly.
    @Test func anOutOfRangeModeIsNoFixNotATrap() {
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":1e300,"lat":52,"lon":13}"#) == .noFix(mode: 0))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":-1e300,"lat":52,"lon":13}"#) == .noFix(mode: 0))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":2.5,"lat":52,"lon":13}"#) == .noFix(mode: 0))
        #expect(GPSDReport.parse(#"{"class":"TPV","mode":"3","lat":52,"lon":13}"#) == .noFix(mode: 0))
    }

    @Test func invalidNumbersAreDropped() {
        let line = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"speed":-1,"track":400,"eph":-3,"altHAE":1e300,"time":"yesterday"}"#
        guard case .fix(let f) = GPSDReport.parse(line) else { Issue.record("no fix"); return }
        #expect(f.speed == nil && f.track == nil && f.horizontalAccuracy == nil && f.altitude == nil && f.time == nil)
        guard case .fix(let g) = GPSDReport.parse(#"{"class":"TPV","mode":3,"lat":1,"lon":2,"track":360}"#) else { return }
        #expect(g.track == 0, "360° is north, kept in [0, 360)")
    }
}
