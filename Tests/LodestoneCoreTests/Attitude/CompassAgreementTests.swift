import LodestoneCore
import Testing

@Suite struct CompassAgreementTests {
    static let dt = 0.04

    /// Feeds `count` readings 0.04 s apart; returns the index of the one that
    /// made the filter give way, if any.
    static func feed(_ agreement: inout CompassAgreement, count: Int, innovation: Double,
                     accepted: Bool, expected: Double = 1e-4) -> Int? {
        for index in 0..<count where agreement.observe(innovation: innovation, accepted: accepted,
                                                        expected: expected, white: 1e-4, dt: dt) {
            return index
        }
        return nil
    }

    /// Rejected readings give way after the longest rejection (2 s: the 50th
    /// reading); accepted ones whose average stays inconsistent (0.1 rad
    /// against an expected 0.01 rad) after the longest inconsistency (5 s: the
    /// 125th), give or take rounding.
    @Test(arguments: [(false, 0.5, 48...50), (true, 0.1, 123...127)])
    func theFilterGivesWayAfterTheLongestTime(accepted: Bool, innovation: Double, when: ClosedRange<Int>) {
        var agreement = CompassAgreement(longestRejection: 2, longestInconsistency: 5)
        let gaveWay = Self.feed(&agreement, count: 200, innovation: innovation, accepted: accepted)
        #expect(gaveWay.map { when.contains($0) } == true, "gave way at \(String(describing: gaveWay))")
    }

    @Test func agreeingReadingsNeverGiveWay() {
        var agreement = CompassAgreement(longestRejection: 2, longestInconsistency: 5)
        #expect(Self.feed(&agreement, count: 2000, innovation: 0.001, accepted: true) == nil)
        #expect(agreement.variance == 0)
    }

    @Test func heldTimeCountsIntoTheNextJudgement() {
        var agreement = CompassAgreement(longestRejection: 2, longestInconsistency: 20)
        #expect(Self.feed(&agreement, count: 25, innovation: 0.5, accepted: false) == nil)  // 1 s
        agreement.held(for: 0.98)
        #expect(Self.feed(&agreement, count: 1, innovation: 0.5, accepted: false) == 0)
    }

    @Test func heldTimeBeforeAResetIsNotCounted() {
        var agreement = CompassAgreement(longestRejection: 2, longestInconsistency: 20)
        agreement.held(for: 1.5)
        agreement.reset()  // a disturbed reading: no evidence either way from here
        #expect(Self.feed(&agreement, count: 40, innovation: 0.5, accepted: false) == nil)  // 1.6 s
    }

    @Test func varianceGrowsWithTheShareOfTheLongestTime() {
        var agreement = CompassAgreement(longestRejection: 2, longestInconsistency: 20)
        _ = Self.feed(&agreement, count: 25, innovation: 0.5, accepted: false)
        let half = agreement.variance
        _ = Self.feed(&agreement, count: 24, innovation: 0.5, accepted: false)
        #expect(abs(half - 0.25 * 0.5) < 0.01 && agreement.variance > 0.24 && agreement.variance <= 0.25)
    }
}
