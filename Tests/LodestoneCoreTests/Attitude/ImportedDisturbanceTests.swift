import Foundation
import Testing
@testable import LodestoneCore

/// The bend the heading took in from readings in a disturbed field: taken in
/// by each reading's gain, taken out again by clean readings and by turning.
@Suite struct ImportedDisturbanceTests {
    static let bend = 0.2 // rad, the bend a reading may carry

    @Test func readingsBringInTheirBendByTheirGain() {
        var imported = ImportedDisturbance()
        imported.corrected(gain: 0.1, possibleBend: Self.bend)
        #expect(abs(imported.bend - 0.02) < 1e-12)
        // Many readings with a small gain each: the shared bend is not averaged away.
        for _ in 0..<1000 { imported.corrected(gain: 0.01, possibleBend: Self.bend) }
        #expect(abs(imported.bend - Self.bend) < 1e-4)
        #expect(abs(imported.variance - Self.bend * Self.bend) < 1e-4)
    }

    @Test func cleanReadingsTakeItOut() {
        var imported = ImportedDisturbance()
        imported.corrected(gain: 1, possibleBend: Self.bend)
        for _ in 0..<100 { imported.corrected(gain: 0.05, possibleBend: 0) }
        #expect(abs(imported.bend - Self.bend * pow(0.95, 100)) < 1e-12)
        imported.corrected(gain: 3, possibleBend: 0)
        #expect(imported.bend == 0, "a gain is at most 1")
    }

    static func about(_ axis: Vector3, _ degrees: Double) -> Quaternion {
        Quaternion(axis: axis, angle: degrees * Double.pi / 180)
    }

    @Test func turningAwayTakesItOutOverTheCorrelationAngle() {
        var imported = ImportedDisturbance()
        let up = Vector3(0, 0, 1)
        imported.turned(to: Self.about(up, 0), correlationAngle: 0.5)
        imported.corrected(gain: 1, possibleBend: Self.bend)
        // A steady turn: aged in quarters of the correlation angle, by the net turn each time.
        for degrees in stride(from: 1.0, through: 57.0, by: 1.0) {
            imported.turned(to: Self.about(up, degrees), correlationAngle: 0.5)
        }
        let turned = 57.0 * Double.pi / 180, quarter = 0.125
        #expect(imported.bend >= Self.bend * exp(-turned / 0.5) && imported.bend <= Self.bend * exp(-(turned - quarter) / 0.5),
                "bend \(imported.bend): the turn less at most a quarter of the correlation angle")
        imported.reset()
        #expect(imported.bend == 0)
    }

    /// A walker's or a boat's sway turns the board back and forth and leaves
    /// it where it was: a bend taken in at that attitude is still there. It
    /// was aged by the path turned (here 12°·4 a cycle), and gone within seconds.
    @Test func aSwayIsNoTurn() {
        var imported = ImportedDisturbance()
        let axis = Vector3(0.3, 1, 0.2)
        imported.turned(to: Self.about(axis, 0), correlationAngle: Double.pi / 4)
        imported.corrected(gain: 1, possibleBend: Self.bend)
        for i in 0..<2_000 { // 20 s of a 1 Hz sway of ±6°, at 100 Hz
            let degrees = 6 * sin(2 * Double.pi * Double(i) / 100)
            imported.turned(to: Self.about(axis, degrees), correlationAngle: Double.pi / 4)
        }
        #expect(imported.bend == Self.bend)
    }
}
