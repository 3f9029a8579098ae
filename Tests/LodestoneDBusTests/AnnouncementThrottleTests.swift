import Testing
@testable import LodestoneDBus

@Suite struct AnnouncementThrottleTests {
    func reading(_ degrees: Double?, trueNorth: Bool = false) -> CompassReading {
        CompassReading(degrees: degrees, isTrueNorth: trueNorth)
    }

    @Test func announcesTheFirstReadingThenOnlyChangesBeyondTheFilter() {
        var t = AnnouncementThrottle(headingFilter: 2, maximumRate: 0)
        #expect(t.decide(reading(nil), now: 0) == .skip, "clients already read −1 before the first heading")
        #expect(t.decide(reading(10), now: 0) == .announce)
        t.didAnnounce(reading(10), at: 0)
        #expect(t.decide(reading(11.9), now: 1) == .skip)
        #expect(t.decide(reading(12), now: 1) == .announce)
        // The short way round: 359 → 1 is 2°, not 358°.
        t.didAnnounce(reading(359), at: 2)
        #expect(t.decide(reading(0.5), now: 3) == .skip)
        #expect(t.decide(reading(1), now: 3) == .announce)
    }

    @Test func knownUnknownAndTheNorthAlwaysCount() {
        var t = AnnouncementThrottle(headingFilter: 5, maximumRate: 0)
        t.didAnnounce(reading(90), at: 0)
        #expect(t.decide(reading(nil), now: 1) == .announce)
        #expect(t.decide(reading(91, trueNorth: true), now: 1) == .announce)
        t.didAnnounce(reading(nil), at: 1)
        #expect(t.decide(reading(nil), now: 2) == .skip)
        #expect(t.decide(reading(90), now: 2) == .announce)
    }

    @Test func waitsOutTheRateLimitAndResetStartsAfresh() {
        var t = AnnouncementThrottle(headingFilter: 1, maximumRate: 10)
        t.didAnnounce(reading(0), at: 5)
        #expect(t.decide(reading(30), now: 5.04) == .wait(until: 5.1))
        #expect(t.decide(reading(30), now: 5.1) == .announce)
        t.reset()
        #expect(t.announced == nil)
        #expect(t.decide(reading(0), now: 5.11) == .announce)
    }

    @Test func readingsAreNormalisedAndInvalidOnesUnknown() {
        #expect(CompassReading(degrees: -90, isTrueNorth: true).degrees == 270)
        #expect(CompassReading(degrees: .nan, isTrueNorth: true) == .unknown)
        #expect(CompassReading.unknown.propertyValue == -1)
    }
}
