import Testing
@testable import LodestoneCore

/// ``CompassShift``, reading by reading: headings in radians, noise of one
/// reading (0.01 rad)², so a jump counts beyond 3·√2·0.01 ≈ 0.042 rad.
@Suite struct CompassShiftTests {
    static let noise = 1e-4, gate = 9.0

    /// Feeds `headings` as clean readings with the filter's heading variance
    /// `headingVariance`, the innovation equal to the heading, `turned` rad
    /// between readings; returns what each reading was judged.
    static func judge(_ headings: [Double], headingVariance: Double = 1e-4, turned: Double = 0) -> [Bool] {
        var shift = CompassShift()
        return headings.map {
            shift.observe(heading: $0, innovation: $0, noise: noise, headingVariance: headingVariance, turned: turned,
                          gateSquared: gate)
        }
    }

    @Test func aLastingJumpWhileTheGyroStaysStillIsAShift() {
        #expect(Self.judge([0, 0.01, 0.40, 0.41, 0.39]) == [false, false, false, true, true])
    }

    @Test func oneNoisyReadingIsNoShift() {
        #expect(Self.judge([0, 0.01, 0.40, 0.01, 0.02, 0.0]) == [false, false, false, false, false, false])
    }

    @Test func aJumpTheGyroTurnedAsFarIsNoShift() {
        #expect(Self.judge([0, 0.4, 0.8, 1.2], turned: 0.5) == [false, false, false, false])
    }

    @Test func aJumpWithinTheFiltersOwnUncertaintyIsNoShift() {
        // Heading known to 0.2 rad: a 0.4 rad jump is within three of its standard deviations.
        #expect(Self.judge([0, 0.4, 0.41], headingVariance: 0.04) == [false, false, false])
    }

    /// A jump back to a field read before (``FieldHistory``) is a disturbance
    /// the heading followed coming to its end: no shift.
    @Test func aJumpBackToAnEarlierFieldIsNoShift() {
        var shift = CompassShift()
        let judged = [0, 0.01, 0.40, 0.41, 0.40].enumerated().map { i, h in
            shift.observe(heading: h, innovation: h, noise: Self.noise, headingVariance: 1e-4, turned: 0,
                          returned: i == 3, gateSquared: Self.gate)
        }
        #expect(judged == [false, false, false, false, false])
    }

    @Test func theShiftEndsWhenTheCompassComesBack() {
        #expect(Self.judge([0, 0.4, 0.4, 0.4, 0.0, 0.01]) == [false, false, true, true, false, false])
    }

    /// The filter's corrections move the heading the readings are judged
    /// against: following the compass step by step is no jump of the compass.
    @Test func theFiltersOwnCorrectionsAreNoJump() {
        var shift = CompassShift()
        var heading = 0.0
        var judged: [Bool] = []
        for compass in [0.0, 0.01, 0.02, 0.03] {
            judged.append(shift.observe(heading: compass - heading, innovation: compass - heading, noise: Self.noise,
                                        headingVariance: 1, turned: 0, gateSquared: Self.gate))
            // A filter that has just been told it is lost takes each reading whole.
            shift.corrected(by: compass - heading)
            heading = compass
        }
        #expect(judged == [false, false, false, false])
    }

    @Test func aDisturbedReadingBetweenKeepsTheJudgement() {
        var shift = CompassShift()
        func clean(_ h: Double) -> Bool {
            shift.observe(heading: h, innovation: h, noise: Self.noise, headingVariance: 1e-4, turned: 0, gateSquared: Self.gate)
        }
        _ = clean(0)
        shift.skipped(turned: 0.01)
        _ = clean(0.4)
        #expect(clean(0.4))
        shift.reset()
        #expect(!clean(0.4))
    }
}
