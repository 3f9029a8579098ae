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
}
