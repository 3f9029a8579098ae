import LodestoneCore
import LodestoneGeomagnetism
import LodestoneLocation
import LodestoneNetwork
import LodestonePosition
import LodestoneSession
import Testing

@Suite struct TrueNorthTests {
    let date = DecimalYear.unixTime(fromDecimalYear: 2026.5)
    let gpsd = PositionSetting.gpsd(Endpoint(host: "localhost", port: 2947))

    func settings(_ position: PositionSetting, maxFixAge: Double = 5, date: Double? = nil, extrapolate: Bool = false) -> TrueNorth.Settings {
        TrueNorth.Settings(position: position, maxFixAge: maxFixAge, modelDate: date ?? self.date, allowExtrapolation: extrapolate)
    }

    func fix(_ lat: Double, _ lon: Double, speed: Double? = 1.5, track: Double? = 90) -> Location {
        Location(latitude: lat, longitude: lon, ellipsoidalAltitude: 50, speed: speed, course: track, timestamp: 0)
    }

    func modelDeclination(_ lat: Double, _ lon: Double, height: Double) throws -> Double {
        try GeomagneticModel.wmm2025.elements(latitude: lat, longitude: lon, height: height / 1000, decimalYear: 2026.5).declination
    }

    /// A blackout point near the north magnetic pole, found with the model itself.
    static func blackoutPoint() throws -> (Double, Double) {
        for lat in stride(from: 80.0, through: 89.5, by: 0.5) {
            for lon in stride(from: -180.0, to: 180, by: 5) {
                let e = try GeomagneticModel.wmm2025.elements(latitude: lat, longitude: lon, height: 0, decimalYear: 2026.5)
                if e.zone == .blackout { return (lat, lon) }
            }
        }
        throw CancellationError()
    }

    @Test func aFixedPositionGivesTheModelsDeclinationAtOnce() throws {
        var t = TrueNorth(settings: settings(.fixed(latitude: 52.5, longitude: 13.4, height: 40)))
        let events = t.update(now: 0, unixTime: 0)
        #expect(events.map(\.name) == [.trueHeadingAvailable])
        #expect(events.first?.reason == .positionKnown)
        let d = try #require(t.declination)
        #expect(abs(d.degrees - (try modelDeclination(52.5, 13.4, height: 40))) < 1e-9)
        #expect(t.position == Location(latitude: 52.5, longitude: 13.4, ellipsoidalAltitude: 40, timestamp: 0))
        #expect(t.expectedField != nil)
        #expect(t.motion == nil, "a position given by hand says nothing of the motion")
        #expect(t.update(now: 1, unixTime: 1).isEmpty, "no event without a change")
    }

    @Test func withoutAPositionTrueHeadingIsUnavailableSilently() {
        var t = TrueNorth(settings: settings(.none))
        #expect(t.update(now: 0, unixTime: 0).isEmpty)
        #expect(t.declination == nil)
        #expect(t.status.name == .trueHeadingUnavailable && t.status.reason == .noPosition)
    }

    @Test func liveFixesComeAndGoWithTheirAge() throws {
        var t = TrueNorth(settings: settings(gpsd))
        var e = t.update(now: 0, unixTime: 0)
        #expect(e.map(\.reason) == [.gpsdUnreachable])
        #expect(e.first?.detail == "no fix yet: gpsd at localhost:2947: not connected yet")
        t.received(.link(problem: nil), at: 0.5)
        #expect(t.update(now: 0.5, unixTime: 0).map(\.reason) == [.noFix])
        t.received(.fix(fix(-33.86, 151.21)), at: 1)
        e = t.update(now: 1, unixTime: 0)
        #expect(e.map(\.name) == [.trueHeadingAvailable])
        #expect(abs((t.declination?.degrees ?? .nan) - (try modelDeclination(-33.86, 151.21, height: 50))) < 1e-9)
        #expect(t.position?.speed == 1.5 && t.position?.course == 90)
        #expect(t.update(now: 6, unixTime: 0).isEmpty, "5 s old is still fresh")
        e = t.update(now: 6.5, unixTime: 0)
        #expect(e.map(\.reason) == [.fixTooOld])
        #expect(e.first?.detail == "the last fix from gpsd at localhost:2947 is 5.5 s old (maximum 5 s)")
        #expect(t.declination == nil && t.position == nil)
        #expect(t.update(now: 9, unixTime: 0).isEmpty, "the age growing is not a new event")
        t.received(.fix(fix(-33.86, 151.21)), at: 10)
        #expect(t.update(now: 10, unixTime: 0).map(\.name) == [.trueHeadingAvailable])
    }

    /// gpsd's "fix lost" (a TPV with mode 1) ends true heading at once, with the reason noFix.
    @Test func aLostFixEndsTrueHeadingAtOnce() {
        var t = TrueNorth(settings: settings(gpsd, maxFixAge: 10))
        t.received(.link(problem: nil), at: 0)
        t.received(.fix(fix(10, 10)), at: 0)
        #expect(t.update(now: 0, unixTime: 0).map(\.name) == [.trueHeadingAvailable])
        t.received(.fixLost, at: 1)
        let e = t.update(now: 1, unixTime: 0)
        #expect(e.map(\.reason) == [.noFix])
        #expect(e.first?.detail == "gpsd at localhost:2947 reports no fix")
        #expect(t.declination == nil && t.position == nil && t.motion == nil)
        t.received(.fix(fix(10, 10)), at: 2)
        #expect(t.update(now: 2, unixTime: 0).map(\.name) == [.trueHeadingAvailable])
    }

    /// Speed and track aid the fusion only while the fix is young: a vehicle's speed changes within seconds.
    @Test func motionIsTheFreshFixsSpeedAndTrack() {
        var t = TrueNorth(settings: settings(gpsd, maxFixAge: 10))
        t.received(.fix(fix(10, 10, speed: 12.5, track: 270)), at: 0)
        _ = t.update(now: 2.9, unixTime: 0)
        #expect(t.motion?.speed == 12.5 && t.motion?.track == 270)
        _ = t.update(now: 3.1, unixTime: 0)
        #expect(t.motion == nil, "older than maxMotionAge (3 s)")
        #expect(t.position != nil, "still fresh enough for the declination")
    }

    @Test func theBlackoutZoneWithholdsTrueHeadingAndDeclination() throws {
        let (lat, lon) = try Self.blackoutPoint()
        var t = TrueNorth(settings: settings(.fixed(latitude: lat, longitude: lon, height: 0)))
        let e = t.update(now: 0, unixTime: 0)
        #expect(e.map(\.reason) == [.blackoutZone])
        #expect(t.declination == nil)
        #expect(t.position != nil, "steering still works there")
    }

    @Test func aDateOutsideTheModelMakesItUnavailableWithTheReason() {
        let late = DecimalYear.unixTime(fromDecimalYear: 2031)
        var t = TrueNorth(settings: settings(.fixed(latitude: 10, longitude: 10, height: 0), date: late))
        let e = t.update(now: 0, unixTime: 0)
        #expect(e.map(\.reason) == [.modelUnusable])
        #expect(e.first?.detail.contains("outside WMM2025's validity") == true)
        var x = TrueNorth(settings: settings(.fixed(latitude: 10, longitude: 10, height: 0), date: late, extrapolate: true))
        #expect(x.update(now: 0, unixTime: 0).map(\.name) == [.modelExtrapolated, .trueHeadingAvailable])
    }
}
