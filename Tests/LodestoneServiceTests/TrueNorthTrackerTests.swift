import LodestoneCore
import LodestoneGeomagnetism
import Testing
@testable import LodestoneService

@Suite struct TrueNorthTrackerTests {
    let date = DecimalYear.unixTime(fromDecimalYear: 2026.5)
    let gpsd = Endpoint(host: "localhost", port: 2947)

    func fix(_ lat: Double, _ lon: Double, speed: Double? = 1.5, course: Double? = 90) -> GPSDReport.Fix {
        GPSDReport.Fix(latitude: lat, longitude: lon, height: 50, speed: speed, course: course, mode: 3, time: nil)
    }

    func modelDeclination(_ lat: Double, _ lon: Double, height: Double) throws -> Double {
        try GeomagneticModel.wmm2025.elements(latitude: lat, longitude: lon, height: height / 1000, decimalYear: 2026.5).declination
    }

    @Test func aFixedPositionGivesTheModelsDeclinationAtOnce() throws {
        var t = TrueNorthTracker(configuration: .fixed(latitude: 52.5, longitude: 13.4, height: 40), maxFixAge: 10,
                                 model: .wmm2025, allowExtrapolation: false, fixedDate: date)
        let events = t.update(now: 0, unixTime: 0)
        #expect(events.map(\.name) == ["trueHeadingAvailable"])
        let d = try #require(t.declination)
        #expect(abs(d.degrees - (try modelDeclination(52.5, 13.4, height: 40))) < 1e-9)
        #expect(t.position == .init(latitude: 52.5, longitude: 13.4, height: 40, speed: nil, course: nil))
        #expect(t.expectedField != nil)
        #expect(t.update(now: 1, unixTime: 1).isEmpty, "no event without a change")
    }

    @Test func withoutAPositionTrueHeadingIsUnavailable() {
        var t = TrueNorthTracker(configuration: .none, maxFixAge: 10, model: .wmm2025, allowExtrapolation: false, fixedDate: date)
        #expect(t.update(now: 0, unixTime: 0).isEmpty)
        #expect(t.declination == nil)
        #expect(t.status.name == "trueHeadingUnavailable" && t.status.reason == "noPosition")
    }

    @Test func gpsdFixesComeAndGoWithTheirAge() throws {
        var t = TrueNorthTracker(configuration: .gpsd(gpsd), maxFixAge: 5, model: .wmm2025, allowExtrapolation: false, fixedDate: date)
        var e = t.update(now: 0, unixTime: 0)
        #expect(e.map(\.reason) == ["gpsdUnreachable"])
        #expect(e.first?.detail == "no fix yet: gpsd at localhost:2947: not connected yet")
        t.gpsdLinkChanged(problem: nil)
        #expect(t.update(now: 0.5, unixTime: 0).map(\.reason) == ["noFix"])
        t.fixReceived(fix(-33.86, 151.21), at: 1)
        e = t.update(now: 1, unixTime: 0)
        #expect(e.map(\.name) == ["trueHeadingAvailable"])
        #expect(abs((t.declination?.degrees ?? .nan) - (try modelDeclination(-33.86, 151.21, height: 50))) < 1e-9)
        #expect(t.position?.speed == 1.5 && t.position?.course == 90)
        #expect(t.update(now: 6, unixTime: 0).isEmpty, "5 s old is still fresh")
        e = t.update(now: 6.5, unixTime: 0)
        #expect(e.map(\.reason) == ["fixTooOld"])
        #expect(e.first?.detail == "the last fix from gpsd is 5.5 s old (maximum 5 s)")
        #expect(t.declination == nil && t.position == nil)
        #expect(t.update(now: 9, unixTime: 0).isEmpty, "the age growing is not a new event")
        t.fixReceived(fix(-33.86, 151.21), at: 10)
        #expect(t.update(now: 10, unixTime: 0).map(\.name) == ["trueHeadingAvailable"])
    }

    @Test func theBlackoutZoneWithholdsTrueHeading() throws {
        // Find a blackout point near the north magnetic pole with the model itself.
        var pole: (Double, Double)?
        search: for lat in stride(from: 80.0, through: 89.5, by: 0.5) {
            for lon in stride(from: -180.0, to: 180, by: 5) {
                let e = try GeomagneticModel.wmm2025.elements(latitude: lat, longitude: lon, height: 0, decimalYear: 2026.5)
                if e.zone == .blackout { pole = (lat, lon); break search }
            }
        }
        let (lat, lon) = try #require(pole)
        var t = TrueNorthTracker(configuration: .fixed(latitude: lat, longitude: lon, height: 0), maxFixAge: 5,
                                 model: .wmm2025, allowExtrapolation: false, fixedDate: date)
        let e = t.update(now: 0, unixTime: 0)
        #expect(e.map(\.reason) == ["blackoutZone"])
        #expect(t.declination == nil)
        #expect(t.position != nil, "steering still works there")
    }

    @Test func aDateOutsideTheModelMakesItUnavailableWithTheReason() {
        var t = TrueNorthTracker(configuration: .fixed(latitude: 10, longitude: 10, height: 0), maxFixAge: 5,
                                 model: .wmm2025, allowExtrapolation: false, fixedDate: DecimalYear.unixTime(fromDecimalYear: 2031))
        let e = t.update(now: 0, unixTime: 0)
        #expect(e.map(\.reason) == ["modelUnusable"])
        #expect(e.first?.detail.contains("outside WMM2025's validity") == true)
        var x = TrueNorthTracker(configuration: .fixed(latitude: 10, longitude: 10, height: 0), maxFixAge: 5,
                                 model: .wmm2025, allowExtrapolation: true, fixedDate: DecimalYear.unixTime(fromDecimalYear: 2031))
        #expect(x.update(now: 0, unixTime: 0).map(\.name) == ["modelExtrapolated", "trueHeadingAvailable"])
    }
}
