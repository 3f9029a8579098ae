import LodestoneCore
import Testing
@testable import LodestoneService

/// How often a gpsd client gets ATT: at most every 0.1 s; with a headingFilter only on
/// that much change, yet at least once a second.
@Suite struct GPSDWatchTests {
    func deliveries(filter threshold: Double, headings: (Double) -> Double) -> [Double] {
        var watch = GPSDWatch(GPSDWatchRequest(json: true, nmea: false))
        var filter = HeadingFilter(threshold: threshold)
        var times: [Double] = []
        for i in 0..<300 { // 3 s at 100 Hz
            let t = Double(i) / 100
            if watch.shouldDeliver(HeadingDirection(degrees: headings(t)), filter: &filter, now: t) { times.append(t) }
        }
        return times
    }

    @Test func withoutAFilterTenTimesASecond() {
        let times = deliveries(filter: 0) { _ in 42 }
        #expect(times.count == 30, "\(times)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 1e-9 })
    }

    @Test func aFilterHoldsAStillBoardToOncePerSecond() {
        let times = deliveries(filter: 5) { _ in 42 }
        #expect(times == [0, 1, 2], "\(times)")
    }

    @Test func aFilterPassesATurnAtMostTenTimesASecond() {
        // 20 °/s with a 5° filter: every 0.25 s.
        let times = deliveries(filter: 5) { 20 * $0 }
        #expect(times.count == 12, "\(times)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.25) < 0.011 }, "\(times)")
    }
}
