import LodestoneLocation
import LodestonePosition
import Testing

@Suite struct ReplayPositionSourceTests {
    /// Four fixes one second apart, at 1 780 000 000 s.
    let fixes = (0..<4).map { Location(latitude: 52 + Double($0) * 1e-4, longitude: 13, timestamp: 1_780_000_000 + Double($0)) }

    func times(_ updates: [PositionUpdate]) -> [Double] {
        updates.compactMap { if case .fix(let f) = $0 { return f.timestamp - 1_780_000_000 } else { return nil } }
    }

    /// At twice the recorded speed the fixes come every half second of the poller's clock,
    /// with their recorded times, and the source ends after the last.
    @Test func pacesFixesByTheirRecordedTimes() {
        var source = ReplayPositionSource(fixes: fixes, speed: 2, notes: ["skipped a line"])
        let first = source.poll(now: 100)
        #expect(first.first == .link(problem: nil) && first.contains(.message("skipped a line")))
        #expect(times(first) == [0])
        #expect(times(source.poll(now: 100.49)).isEmpty)
        #expect(times(source.poll(now: 100.5)) == [1])
        #expect(!source.hasEnded)
        #expect(times(source.poll(now: 110)) == [2, 3])
        #expect(source.hasEnded && source.poll(now: 120).isEmpty)
    }

    /// A loop starts again one mean interval after the end, every lap's times shifted
    /// forward by the lap's length (duration 3 s + 1 s), so that time never goes back.
    @Test func loopsWithTimesMovingForward() {
        var source = ReplayPositionSource(fixes: fixes, speed: 1, loop: true)
        #expect(times(source.poll(now: 0)) == [0])
        #expect(times(source.poll(now: 3)) == [1, 2, 3])
        #expect(times(source.poll(now: 4)) == [4])
        #expect(times(source.poll(now: 7.5)) == [5, 6, 7])
        #expect(times(source.poll(now: 8)) == [8])
        #expect(!source.hasEnded)
    }

    /// As fast as possible: everything at the first poll; with a loop one lap per poll.
    @Test func asFastAsPossible() {
        var once = ReplayPositionSource(fixes: fixes, speed: nil)
        #expect(times(once.poll(now: 0)) == [0, 1, 2, 3])
        #expect(once.hasEnded)
        var looping = ReplayPositionSource(fixes: fixes, speed: nil, loop: true)
        #expect(times(looping.poll(now: 0)) == [0, 1, 2, 3])
        #expect(times(looping.poll(now: 0)) == [4, 5, 6, 7])
    }

    /// A fixed position comes once per interval, each fix stamped forward by the time passed.
    @Test func fixedSourceStampsItsFixesForward() {
        var source = FixedPositionSource(fixes[0], interval: 1)
        #expect(times(source.poll(now: 50)) == [0])
        #expect(times(source.poll(now: 50.5)).isEmpty)
        #expect(times(source.poll(now: 51.25)) == [1.25])
    }
}
