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

    @Test func turningTakesItOutOverTheCorrelationAngle() {
        var imported = ImportedDisturbance()
        imported.corrected(gain: 1, possibleBend: Self.bend)
        for _ in 0..<10 { imported.turned(by: 0.05, correlationAngle: 0.5) }
        #expect(abs(imported.bend - Self.bend * exp(-1.0)) < 1e-12)
        imported.reset()
        #expect(imported.bend == 0)
    }
}
