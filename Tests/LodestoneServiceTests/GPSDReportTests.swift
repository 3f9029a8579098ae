import Testing
@testable import LodestoneService

/// Lines as gpsd 3.22 (Debian 12) sent them while gpsfake replayed an NMEA track.
@Suite struct GPSDReportTests {
    @Test func tpvWithAFix() throws {
        let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-11-30T12:00:01.000Z","ept":0.005,"lat":52.512000000,"lon":13.327000000,"altHAE":74.0000,"altMSL":34.0000,"alt":34.0000,"track":45.0000,"magtrack":49.0356,"magvar":4.0,"speed":1.286,"climb":0.000,"geoidSep":40.000,"eph":17.100}"#
        #expect(GPSDReport.parse(line) == .fix(.init(latitude: 52.512, longitude: 13.327, height: 74, speed: 1.286, course: 45,
                                                      mode: 3, time: "2026-11-30T12:00:01.000Z")))
    }

    @Test func oldGpsdWithoutAltHAEGivesAlt() {
        let line = #"{"class":"TPV","mode":2,"lat":-33.86,"lon":151.21,"alt":12.5}"#
        #expect(GPSDReport.parse(line) == .fix(.init(latitude: -33.86, longitude: 151.21, height: 12.5, speed: nil, course: nil, mode: 2, time: nil)))
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

    @Test func invalidSpeedAndTrackAreDropped() {
        let line = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"speed":-1,"track":400}"#
        guard case .fix(let f) = GPSDReport.parse(line) else { Issue.record("no fix"); return }
        #expect(f.speed == nil && f.course == nil)
    }
}
