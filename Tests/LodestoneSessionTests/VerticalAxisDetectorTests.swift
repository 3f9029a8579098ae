import LodestoneSession
import Testing

@Suite struct VerticalAxisDetectorTests {
    /// Feeds one sample every `step` seconds from `start`, vertical where `pattern` says so,
    /// and returns each change with its time. Steps of 0.25 s add up exactly in binary.
    func changes(_ pattern: [Bool], step: Double = 0.25, start: Double = 0,
                 into detector: inout VerticalAxisDetector) -> [(VerticalAxisDetector.Change, Double)] {
        var out: [(VerticalAxisDetector.Change, Double)] = []
        for (i, vertical) in pattern.enumerated() {
            let t = start + Double(i) * step
            if let c = detector.update(isVertical: vertical, time: t) { out.append((c, t)) }
        }
        return out
    }

    @Test func startsAfterTwoSecondsNearVerticalAndEndsAfterOneSecondAway() {
        var d = VerticalAxisDetector()
        // The first sample counts no time: 2 s of vertical is reached at the ninth, t = 2.
        let started = changes(Array(repeating: true, count: 12), into: &d)
        #expect(started.map(\.0) == [.started] && started.map(\.1) == [2.0])
        #expect(d.isInForce)
        // The first sample away counts the 0.25 s since the last near vertical (t = 2.75).
        let ended = changes(Array(repeating: false, count: 8), start: 3.0, into: &d)
        #expect(ended.map(\.0) == [.ended] && ended.map(\.1) == [3.75])
        #expect(!d.isInForce)
    }

    /// A hand-held board swung past vertical for 1.5 s at a time, with as long away
    /// in between, is never reported however long it goes on.
    @Test func briefPassesThroughVerticalRaiseNothing() {
        var d = VerticalAxisDetector()
        let swing = Array(repeating: true, count: 6) + Array(repeating: false, count: 6)
        let pattern = Array(Array(repeating: swing, count: 40).joined())
        #expect(changes(pattern, into: &d).isEmpty)
        #expect(!d.isInForce)
    }

    /// Flickering across the limit three samples in four: time away counts back
    /// down, so the net 2 s is reached at the 15th sample (t = 3.5 s), not the 9th.
    @Test func aBoardMostlyNearVerticalIsReportedDespiteFlicker() {
        var d = VerticalAxisDetector()
        let pattern = (0..<24).map { $0 % 4 != 3 }
        let got = changes(pattern, into: &d)
        #expect(got.map(\.0) == [.started] && got.map(\.1) == [3.5])
    }

    /// A gap in the samples counts as 1 s at most; a step back in time (a log that
    /// starts again) counts nothing.
    @Test func gapsAndStepsBackCountLittle() {
        var d = VerticalAxisDetector()
        #expect(d.update(isVertical: true, time: 0) == nil)
        #expect(d.update(isVertical: true, time: 60) == nil, "60 s unseen count as 1 s")
        #expect(d.update(isVertical: true, time: 60.5) == nil)
        #expect(d.update(isVertical: true, time: 0) == nil, "back in time: nothing")
        #expect(d.update(isVertical: true, time: 0.25) == nil)
        #expect(d.update(isVertical: true, time: 0.5) == .started, "1 + 0.5 + 0 + 0.25 + 0.25 = 2 s")
    }

    @Test func resetForgetsTheStateAndTheCount() {
        var d = VerticalAxisDetector()
        _ = changes(Array(repeating: true, count: 9), into: &d)
        #expect(d.isInForce)
        d.reset()
        #expect(!d.isInForce)
        let again = changes(Array(repeating: true, count: 9), start: 10, into: &d)
        #expect(again.map(\.1) == [12.0], "counted from the reset, not from before it")
    }

    @Test func settingsSetTheDelays() {
        var d = VerticalAxisDetector(settings: .init(startAfter: 0.5, endAfter: 0.25))
        let got = changes([true, true, true, true, false, false], into: &d)
        #expect(got.map(\.0) == [.started, .ended] && got.map(\.1) == [0.5, 1.0])
    }
}
