import Foundation
import Testing
@testable import LodestoneSteering

/// The stateless bands (no hysteresis).
@Suite struct TurnInstructionTests {
    @Test(arguments: [
        (0.0, TurnInstruction.ahead), (10, .ahead), (-10, .ahead),
        (10.01, .slightRight), (45, .slightRight), (67.5, .slightRight),
        (-10.01, .slightLeft), (-45, .slightLeft), (-67.5, .slightLeft),
        (67.51, .right), (90, .right), (112.5, .right),
        (-67.51, .left), (-90, .left), (-112.5, .left),
        (112.51, .sharpRight), (135, .sharpRight), (157.5, .sharpRight),
        (-112.51, .sharpLeft), (-135, .sharpLeft), (-157.5, .sharpLeft),
        (157.51, .turnAround), (-157.51, .turnAround), (179.99, .turnAround), (-180, .turnAround), (180, .turnAround),
    ])
    func bands(delta: Double, expected: TurnInstruction) {
        #expect(TurnInstruction(delta: delta, aheadTolerance: 10) == expected)
    }

    @Test func deltaWrapsAround() {
        // 370° is 10° to the right, −350° too; 200° is 160° to the left.
        #expect(TurnInstruction(delta: 370, aheadTolerance: 10) == .ahead)
        #expect(TurnInstruction(delta: -335, aheadTolerance: 10) == .slightRight)
        #expect(TurnInstruction(delta: 200, aheadTolerance: 10) == .turnAround)
        #expect(TurnInstruction(delta: 250, aheadTolerance: 10) == .left)
        #expect(TurnInstruction(delta: -250, aheadTolerance: 10) == .right)
    }

    @Test func toleranceSetsTheAheadBand() {
        #expect(TurnInstruction(delta: 20, aheadTolerance: 25) == .ahead)
        #expect(TurnInstruction(delta: 0.5, aheadTolerance: 0) == .slightRight)
        #expect(TurnInstruction(delta: 0, aheadTolerance: 0) == .ahead)
    }

    @Test func rawValuesAreTheJSONNames() throws {
        #expect(TurnInstruction.allCases.map(\.rawValue) ==
                ["ahead", "slightLeft", "left", "sharpLeft", "turnAround", "slightRight", "right", "sharpRight"])
        let json = String(decoding: try JSONEncoder().encode([TurnInstruction.sharpLeft]), as: UTF8.self)
        #expect(json == "[\"sharpLeft\"]")
    }
}
