import Foundation
import Testing
@testable import LodestoneCore

/// ``FieldHistory``: a level board reading the earth field (0, 21, −45) µT
/// 20 times a second. A heading correction by `a` makes a field that has not
/// moved read `a` less (``CompassShift/corrected(by:)``); a bias about up of
/// `b` turns the filter's frame as corrections of −`b` a second would.
@Suite struct FieldHistoryTests {
    static let horizontal = 21.0, vertical = -45.0, step = 0.05
    static let tolerance = FieldHistory.Tolerance(gateSquared: 9, noise: 0.25, tilt: 0, compass: 0,
                                                  correlationAngle: Double.pi / 4, walk: 0)

    /// The earth field with heading `heading` (rad) and `up` µT added to its vertical.
    static func field(heading: Double, up: Double = 0) -> Vector3 {
        Vector3(horizontal * sin(heading), horizontal * cos(heading), vertical + up)
    }

    /// Records the field the filter reads for `duration` s from `start`,
    /// `reading(t)`, with `perStep` corrections and the gyro's `bias` about up.
    static func record(_ history: inout FieldHistory, from start: Double, for duration: Double,
                       bias: Double = 0, biasVariance: Double = 1e-10, perStep: Double = 0,
                       reading: (Double) -> Vector3) {
        var t = start
        while t < start + duration {
            history.carried(upTime: Vector3(0, 0, step), bias: Vector3(0, 0, bias), turn: 0, scaledTurn: 0, path: 0)
            if perStep != 0 { history.corrected(by: perStep) }
            history.record(field: reading(t), bias: Vector3(0, 0, bias), biasVariance: biasVariance, scale: 0, time: t)
            t += step
        }
    }

    /// A disturbance that grows for `length` s turns the compass by 15° and
    /// raises the vertical by 4 µT; the filter follows it with corrections.
    /// When it ends, the compass reads the earth field again, which in the
    /// filter's frame is 15° less. A field from before the growth is found,
    /// however long the disturbance lasted.
    @Test(arguments: [10.0, 60.0, 200.0, 600.0])
    func aFieldComingBackAfterTheHeadingFollowedADisturbanceIsAReturn(length: Double) {
        var history = FieldHistory()
        let turned = 15 * Double.pi / 180, steps = (length / Self.step).rounded()
        Self.record(&history, from: 0, for: 700) { _ in Self.field(heading: 0) }
        Self.record(&history, from: 700, for: length, perStep: turned / steps) { t in
            Self.field(heading: 0, up: 4 * (t - 700) / length)
        }
        let end = 700 + length
        let found = history.return(of: Self.field(heading: -turned), time: end, tolerance: Self.tolerance)
        #expect(found != nil)
        if let found {
            #expect(found.age >= length, "age \(found.age) s")
            #expect((found.field - Self.field(heading: -turned)).length < 0.1, "carried to \(found.field)")
        }
    }

    /// The same growth, followed by the bias instead (0.25 °/s for 60 s):
    /// the earlier field is carried by the gyro less the bias it had then.
    @Test func aHeadingDraggedThroughTheBiasIsCarriedToo() {
        var history = FieldHistory()
        let bias = 0.25 * Double.pi / 180
        Self.record(&history, from: 0, for: 300) { _ in Self.field(heading: 0) }
        Self.record(&history, from: 300, for: 60, bias: bias) { t in Self.field(heading: 0, up: 4 * (t - 300) / 60) }
        let back = Self.field(heading: bias * 60)
        let found = history.return(of: back, time: 360, tolerance: Self.tolerance)
        #expect(found.map { ($0.field - back).length < 0.1 } == true, "found \(String(describing: found))")
    }

    /// A field that came in a step, on a filter that did not move: no
    /// earlier field is like it, and the last reading is like all of them.
    @Test func aNewFieldIsNoReturn() {
        var history = FieldHistory()
        Self.record(&history, from: 0, for: 300) { _ in Self.field(heading: 0) }
        let stepped = Self.field(heading: 0) + Vector3(6, 0, 3)
        #expect(history.return(of: stepped, time: 300, tolerance: Self.tolerance) == nil)
    }

    /// A disturbance that only turned the compass, by 15° over 60 s, where
    /// the gyro's bias was known to 0.1 °/s: the gyro alone may have drifted
    /// as far, so the field before it tells nothing.
    @Test func aTurnWithinTheGyrosDriftIsNoReturn() {
        var history = FieldHistory()
        let turned = 15 * Double.pi / 180, known = 0.1 * Double.pi / 180
        Self.record(&history, from: 0, for: 300, biasVariance: known * known) { _ in Self.field(heading: 0) }
        Self.record(&history, from: 300, for: 60, biasVariance: known * known, perStep: turned / 1200) { _ in
            Self.field(heading: 0)
        }
        #expect(history.return(of: Self.field(heading: -turned), time: 360, tolerance: Self.tolerance) == nil)
    }
}
