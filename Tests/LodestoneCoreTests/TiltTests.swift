import LodestoneCore
import LodestoneSimulation
import Testing

@Suite struct TiltTests {
    /// Attitudes built by `BoardAttitude` (heading, then pitch about x, then roll about y) read back.
    @Test func readsBackTheBoardsPitchAndRoll() {
        for heading in stride(from: 0.0, to: 360, by: 45) {
            for pitch in [-80.0, -30, 0, 12, 45, 85] {
                for roll in [-170.0, -90, -10, 0, 20, 120, 179] {
                    let q = BoardAttitude(heading: heading, pitch: pitch, roll: roll).quaternion
                    let tilt = Tilt(attitude: q)
                    #expect(abs(tilt.pitch - pitch) < 1e-9 && abs(tilt.roll - roll) < 1e-9,
                            "heading \(heading) pitch \(pitch) roll \(roll): \(tilt)")
                }
            }
        }
    }

    /// Signs from first principles: a 30° turn about the right axis (x) lifts the forward
    /// axis (y): bow up. A 30° turn about the forward axis (y) takes x (right) down.
    @Test func signsFollowBowUpAndStarboardDown() {
        let r = Angle.radiansPerDegree
        let noseUp = Tilt(attitude: Quaternion(axis: .unitX, angle: 30 * r))
        #expect(abs(noseUp.pitch - 30) < 1e-9 && abs(noseUp.roll) < 1e-9)
        let rightDown = Tilt(attitude: Quaternion(axis: .unitY, angle: 30 * r))
        #expect(abs(rightDown.roll - 30) < 1e-9 && abs(rightDown.pitch) < 1e-9)
        #expect(Tilt(attitude: .identity) == Tilt(pitch: 0, roll: 0))
    }

    /// With +x forward, the right side is −y: lifting +x is pitch, lowering −y is roll.
    @Test func followsTheForwardAxis() {
        let r = Angle.radiansPerDegree
        let xUp = Tilt(attitude: Quaternion(axis: .unitY, angle: -25 * r), forward: .plusX)
        #expect(abs(xUp.pitch - 25) < 1e-9 && abs(xUp.roll) < 1e-9, "\(xUp)")
        let minusYDown = Tilt(attitude: Quaternion(axis: .unitX, angle: 25 * r), forward: .plusX)
        #expect(abs(minusYDown.roll - 25) < 1e-9 && abs(minusYDown.pitch) < 1e-9, "\(minusYDown)")
        let backwards = Tilt(attitude: Quaternion(axis: .unitX, angle: 25 * r), forward: .minusY)
        #expect(abs(backwards.pitch + 25) < 1e-9 && abs(backwards.roll) < 1e-9, "\(backwards)")
    }

    /// A board stood up on its bottom edge (90° about x: +y up, the back −z level) is
    /// level for −z. Leaning back 10° more lifts −z: pitch 10°. Turned 20° about −z so
    /// that its right edge (+x) goes down: roll 20°.
    @Test func theBackOfAnUprightBoardIsLevel() {
        let r = Angle.radiansPerDegree
        let upright = Quaternion(axis: .unitX, angle: 90 * r)
        let level = Tilt(attitude: upright, forward: .minusZ)
        #expect(abs(level.pitch) < 1e-9 && abs(level.roll) < 1e-9, "\(level)")
        let leaning = Tilt(attitude: Quaternion(axis: .unitX, angle: 100 * r), forward: .minusZ)
        #expect(abs(leaning.pitch - 10) < 1e-9 && abs(leaning.roll) < 1e-9, "\(leaning)")
        let rightDown = Tilt(attitude: upright * Quaternion(axis: -.unitZ, angle: 20 * r), forward: .minusZ)
        #expect(abs(rightDown.roll - 20) < 1e-9 && abs(rightDown.pitch) < 1e-9, "\(rightDown)")
        let face = Tilt(attitude: upright, forward: .plusZ)
        #expect(abs(face.pitch) < 1e-9 && abs(face.roll) < 1e-9, "\(face)")
    }
}
