import Testing
@testable import LodestoneCore

/// ``BiasConfirmation``, window by window: biases in rad/s about two level body
/// axes, each window's variance (0.001 rad/s)², so two agree within
/// 3·√2·0.001 ≈ 0.0042 rad/s; windows 1.5 s long, doubt lapsing after 10 s. The
/// estimate is (0.004, −0.003) rad/s, and giving way asked to widen it by
/// 0.017 rad/s (1 °/s) about the first axis and 0.01 rad/s about the second.
@Suite struct BiasConfirmationTests {
    static let axes = (Vector3(1, 0, 0), Vector3(0, 1, 0))
    static let widening = BiasConfirmation.Widening(first: axes.0, firstVariance: 3e-4, second: axes.1, secondVariance: 1e-4)

    /// Judges windows `(time, east, north)`, each the bias it shows, after a doubt at 0 s; names each verdict.
    static func verdicts(_ windows: [(Double, Double, Double)], doubted: Bool = true) -> [String] {
        var c = BiasConfirmation(windowLength: 1.5, doubtTime: 10)
        if doubted { c.doubt(widening, now: 0) }
        let estimate = (0.004, -0.003)
        return windows.map { t, e, n in
            switch c.judge(innovation: (e - estimate.0, n - estimate.1), estimate: estimate, axes: axes, variance: 1e-6,
                           now: t) {
            case .use: return "use"
            case .hold: return "hold"
            case .confirmed(let w): return w.firstVariance == 3e-4 && w.secondVariance == 1e-4 ? "confirmed" : "confirmed other"
            }
        }
    }

    @Test func withoutDoubtEveryWindowIsUsed() {
        #expect(Self.verdicts([(1, 0.03, 0), (3, -0.05, 0.02)], doubted: false) == ["use", "use"])
    }

    /// A stepped bias: the same in every window. The second is compared only once
    /// the first's samples are behind it; then the widening asked for is applied.
    @Test func twoWindowsThatAgreeConfirmTheWidening() {
        #expect(Self.verdicts([(1, 0.035, 0.017), (2, 0.035, 0.017), (2.6, 0.037, 0.015)])
                == ["hold", "hold", "confirmed"])
    }

    /// Two windows that agree on a bias further from the estimate than the
    /// give-way asked for (3.2 standard deviations about the second axis): a
    /// slow translation's drift, changing little between two windows, once
    /// taught 3 °/s so. They are held.
    @Test func windowsThatAgreeBeyondTheWideningAreHeld() {
        #expect(Self.verdicts([(1, 0.01, 0.029), (2.6, 0.01, 0.029)]) == ["hold", "hold"])
        #expect(Self.verdicts([(1, 0.01, 0.026), (2.6, 0.01, 0.026)]) == ["hold", "confirmed"])
    }

    /// A translation's drift changes from window to window: each is held in turn
    /// for the next to agree with, and none corrects the bias.
    @Test func windowsThatScatterAreHeld() {
        #expect(Self.verdicts([(1, 0.05, 0.01), (3, -0.03, 0.02), (5, -0.036, 0.02), (7, 0.04, 0.03)])
                == ["hold", "hold", "hold", "hold"])
    }

    /// No agreement within the doubt's time: it lapses, and the windows correct
    /// the bias again without the widening.
    @Test func theDoubtLapses() {
        #expect(Self.verdicts([(1, 0.05, 0.01), (9, -0.03, 0.02), (11, -0.03, 0.02), (13, 0.04, 0.03)])
                == ["hold", "hold", "use", "use"])
    }
}
