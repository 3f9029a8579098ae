import Foundation
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

    /// A gyro drifting 0.12 rad from the compass (a 3 % scale error in a
    /// steady turn) stays within two standard deviations of one reading
    /// (heading 2°, compass error 5°), but a board turning 20 °/s spans a new
    /// compass error every 45°: the readings' long average holds little of it,
    /// and the drift shows. A board that does not turn sees one compass error
    /// throughout, which may be the whole disagreement; and a field disturbed
    /// within the tolerances, whose possible bend (8° here) the readings share
    /// rather than average away, may be too.
    @Test(arguments: [(20.0, 0.0, true), (0.0, 0.0, false), (20.0, 8.0, false)])
    func aDriftHiddenByTheCompassErrorShowsOverATurn(degreesPerSecond: Double, bend: Double, givesWay: Bool) {
        var agreement = CompassAgreement(longestRejection: 10, longestInconsistency: 5, longAveragingTime: 10,
                                         correlationAngle: .pi / 4)
        let heading = pow(2 * Double.pi / 180, 2), compass = pow(5 * Double.pi / 180, 2)
        let turned = degreesPerSecond * Double.pi / 180 * Self.dt
        let bendVariance = pow(bend * Double.pi / 180, 2)
        var gaveWayAt: Double?
        for index in 0..<1_500 where agreement.observe(innovation: 0.12, accepted: true, expected: heading + compass,
                                                        white: 1e-4 + bendVariance, dt: Self.dt,
                                                        compassVariance: compass, bendVariance: bendVariance,
                                                        turned: turned) {
            gaveWayAt = Double(index) * Self.dt
            break
        }
        #expect((gaveWayAt != nil) == givesWay, "gave way at \(String(describing: gaveWayAt)) s")
    }

    /// Before the drift above is judged to last, its long average's excess
    /// over what the filter expects of it (0.12² against about 0.008 rad² after
    /// 3 s of turning) already counts in the heading's variance.
    @Test func theLongAveragesExcessCountsAtOnce() {
        var agreement = CompassAgreement(longestRejection: 10, longestInconsistency: 5, longAveragingTime: 10,
                                         correlationAngle: .pi / 4)
        let heading = pow(2 * Double.pi / 180, 2), compass = pow(5 * Double.pi / 180, 2)
        for _ in 0..<75 {
            _ = agreement.observe(innovation: 0.12, accepted: true, expected: heading + compass, white: 1e-4,
                                  dt: Self.dt, compassVariance: compass, turned: 20 * Double.pi / 180 * Self.dt)
        }
        #expect(agreement.inconsistentFor == 0)
        #expect(agreement.variance > 0.005 && agreement.variance < 0.12 * 0.12, "variance \(agreement.variance)")
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
