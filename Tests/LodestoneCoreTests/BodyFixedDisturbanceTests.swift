import Foundation
import Testing
import LodestoneSimulation
@testable import LodestoneCore

/// A field carried with the board (``BodyFixedDisturbance``), alone and inside ``AttitudeFusion``.
@Suite struct BodyFixedDisturbanceTests {
    let dt = 0.01

    // MARK: The estimator alone

    func estimator() -> BodyFixedDisturbance {
        BodyFixedDisturbance(changeTime: 1, averagingTime: 60, correlationTime: 2, gate: 3)
    }

    /// A rotation that wanders over all axes (about 60°/s): the board is turned every which way.
    static func wandering(_ t: Double) -> Quaternion {
        Quaternion(axis: Vector3(sin(0.31 * t), cos(0.17 * t), 0.6), angle: 1.1 * t)
    }

    /// Residuals of a constant body-frame offset, seen from many attitudes: trusted.
    @Test func offsetConstantInTheBodyFrameIsTrustedOnceSeenFromManyDirections() throws {
        var e = estimator()
        let o = Vector3(3, -2, 5)
        var random = RandomSource(seed: 9)
        var trustedAt: Double?
        for i in 0..<3_000 {
            let t = Double(i) * dt
            let q = Self.wandering(t)
            let r = o + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.7
            e.update(residual: r, earth: q.rotate(r), allowance: 0.3, dt: dt)
            if trustedAt == nil, e.offset != nil { trustedAt = t }
        }
        let at = try #require(trustedAt, "never trusted")
        #expect(at < 10, "trusted after \(at) s")
        let offset = try #require(e.offset)
        let error = (offset - o).length
        #expect(error < 0.2, "offset \(offset)")
        // The stated variance covers the actual error and is not vacuous.
        #expect(e.offsetVariance > error * error && e.offsetVariance < 0.2, "variance \(e.offsetVariance), error \(error)")
    }

    /// The same residuals, but constant in the earth frame (a field fixed in the
    /// room, or a heading error), while the board mostly turns about the
    /// vertical: in the body frame their vertical part stays put, so they look
    /// like a constant offset. They must never be trusted, however long the board turns.
    @Test func offsetConstantInTheEarthFrameIsNeverTrusted() {
        var e = estimator()
        let d = Vector3(3, -2, 5)
        var random = RandomSource(seed: 10)
        var everTrusted = false
        for i in 0..<6_000 {
            let t = Double(i) * dt
            let q = Quaternion(axis: Vector3(0.1 * sin(0.3 * t), 0.1 * cos(0.2 * t), 1), angle: 0.8 * t)
            let earth = d + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.7
            // A large allowance, so that the candidate is not simply restarted by the turning body residual.
            e.update(residual: q.conjugate.rotate(earth), earth: earth, allowance: 100, dt: dt)
            everTrusted = everTrusted || e.offset != nil
        }
        #expect(!everTrusted)
    }

    /// A trusted offset whose residuals drop back to zero (the magnet was taken
    /// off) is dropped within about a change time, even when the change is
    /// smaller than the consistency gate.
    @Test func offsetIsDroppedWhenTheReadingsMatchTheReferenceAgain() throws {
        var e = estimator()
        let o = Vector3(2, -3, 3) // 4.7 µT, inside the gate of 3 × √4 µT
        var random = RandomSource(seed: 12)
        var trusted = false, droppedAt: Double?
        for i in 0..<4_000 {
            let t = Double(i) * dt
            let q = Self.wandering(t)
            let r = (t < 30 ? o : .zero) + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.7
            e.update(residual: r, earth: q.rotate(r), allowance: 4, dt: dt)
            if t < 30 { trusted = e.offset != nil }
            if t >= 30, droppedAt == nil, e.offset == nil { droppedAt = t }
        }
        #expect(trusted)
        let at = try #require(droppedAt, "never dropped")
        #expect(at < 31.5, "dropped at \(at) s")
        #expect(e.offset == nil)
    }

    /// A board that lies still cannot tell a carried field from a room field.
    @Test func stillBoardNeverTrustsAnOffset() {
        var e = estimator()
        let q = Quaternion(axis: Vector3(0.2, 0.5, 1), angle: 0.7)
        let o = Vector3(3, -2, 5)
        var random = RandomSource(seed: 11)
        var everTrusted = false
        for _ in 0..<6_000 {
            let r = o + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.7
            e.update(residual: r, earth: q.rotate(r), allowance: 0.3, dt: dt)
            everTrusted = everTrusted || e.offset != nil
        }
        #expect(!everTrusted)
    }

    // MARK: A step of the field (FieldStep)

    /// Feeds `seconds` of residuals `residual(t)` plus noise at attitudes `attitude(t)`.
    func feed(_ e: inout BodyFixedDisturbance, from start: Double, seconds: Double, seed: UInt64,
              attitude: (Double) -> Quaternion, residual: (Double) -> Vector3) {
        var random = RandomSource(seed: seed)
        for i in 0..<Int(seconds / dt) {
            let t = start + Double(i) * dt
            let r = residual(t) + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.5
            e.update(residual: r, earth: attitude(t).rotate(r), allowance: 0.3, dt: dt)
        }
    }

    /// A residual of 1.5 µT before the step (what a heading error does to the
    /// predicted field), then a 10 µT magnet: the offset is the step alone, at
    /// once and while the board lies still; once it turns, the carried field
    /// is confirmed, and the offset is then the whole residual's mean.
    @Test func aStepIsRemovedAtOnceAndConfirmedOnceTheBoardTurns() throws {
        var e = estimator()
        let before = Vector3(1.5, 0, 0), magnet = Vector3(8, -5, 3)
        let still = Quaternion(axis: Vector3(0.2, 0.5, 1), angle: 0.7)
        feed(&e, from: 0, seconds: 20, seed: 31, attitude: { _ in still }, residual: { _ in before })
        #expect(e.offset == nil)
        e.stepped(by: magnet, variance: 0.01, tolerated: 1, rotation: still.rotationMatrix)
        #expect(e.isTentative && e.offset == magnet)
        feed(&e, from: 20, seconds: 20, seed: 32, attitude: { _ in still }, residual: { _ in before + magnet })
        let held = try #require(e.offset)
        #expect(e.isTentative)
        #expect((held - magnet).length < 0.3, "offset \(held): the residual before the step is no offset")
        feed(&e, from: 40, seconds: 30, seed: 33, attitude: Self.wandering, residual: { _ in before + magnet })
        let confirmed = try #require(e.offset)
        #expect(!e.isTentative)
        #expect((confirmed - (before + magnet)).length < 0.3, "offset \(confirmed)")
    }

    static let still = Quaternion(axis: Vector3(0, 0, 1), angle: 0.3)

    /// An estimator that was told of a step of `magnet` on a still board, and
    /// saw its residuals for 5 s.
    func afterAStep(of magnet: Vector3, seed: UInt64) -> BodyFixedDisturbance {
        var e = estimator()
        e.stepped(by: magnet, variance: 0.01, tolerated: 1, rotation: Self.still.rotationMatrix)
        feed(&e, from: 0, seconds: 5, seed: seed, attitude: { _ in Self.still }, residual: { _ in magnet })
        return e
    }

    /// A step that takes the offset back to within what the compass's error
    /// allows ends it: the magnet came off.
    @Test func aStepBackEndsTheOffset() {
        var e = afterAStep(of: Vector3(8, -5, 3), seed: 34)
        #expect(e.offset != nil)
        e.stepped(by: Vector3(-7.5, 4.6, -2.8), variance: 0.01, tolerated: 1, rotation: Self.still.rotationMatrix)
        #expect(e.offset == nil && !e.isTentative)
    }

    /// A tentative offset whose residuals go back to zero without a step
    /// being seen (the readings were disturbed meanwhile) is dropped: the
    /// plain readings explain them better.
    @Test func aTentativeOffsetTheResidualsNoLongerShowIsDropped() throws {
        var e = afterAStep(of: Vector3(8, -5, 3), seed: 35)
        #expect(e.offset != nil)
        var droppedAt: Double?
        var random = RandomSource(seed: 36)
        for i in 0..<500 {
            let r = Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.5
            e.update(residual: r, earth: Self.still.rotate(r), allowance: 0.3, dt: dt)
            if droppedAt == nil, e.offset == nil { droppedAt = Double(i) * dt }
        }
        let at = try #require(droppedAt, "never dropped")
        #expect(at < 1.5, "dropped after \(at) s")
    }

    /// A step fixed in the room, taken at first for a carried field's (a
    /// board lying still cannot tell), on a board that then turns at 5 °/s:
    /// its residuals hold still in the earth frame and turn in the body frame.
    /// The tentative offset, removed in the body frame, turns the readings
    /// with the board; it must go as soon as the turning shows the room's
    /// field, not only when the residuals have strayed from it beyond their
    /// allowance, which in motion is wide (3 µT² here, as a walk's attitude
    /// uncertainty gives): 124° into the turn before, about 35° now.
    @Test func aTentativeStepFixedInTheRoomIsDroppedOnceTheTurningShowsIt() throws {
        var e = estimator()
        let room = Vector3(4, -3, 2)
        let turning = { (t: Double) in Quaternion(axis: Vector3(0, 0, 1), angle: 0.3 + 5 * Double.pi / 180 * max(0, t - 5)) }
        e.stepped(by: turning(0).conjugate.rotate(room), variance: 0.01, tolerated: 1, rotation: turning(0).rotationMatrix)
        var droppedAt: Double?
        var random = RandomSource(seed: 41)
        for i in 0..<3_000 {
            let t = Double(i) * dt, q = turning(t)
            let r = q.conjugate.rotate(room) + Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * 0.5
            e.update(residual: r, earth: q.rotate(r), allowance: 3, dt: dt)
            if droppedAt == nil, e.offset == nil { droppedAt = t }
        }
        let at = try #require(droppedAt, "never dropped")
        print("tentative room step dropped at \(at) s, \(5 * (at - 5))° into the turn")
        #expect(at > 5, "not while the board lay still")
        #expect(at < 14, "dropped \(5 * (at - 5))° into the turn")
    }

    // MARK: Inside the fusion

    /// The board lies still for 10 s, then turns every which way. At 30 s a
    /// magnet is fixed to it; at the same time the gyro bias jumps by
    /// 0.3 °/s, so that a heading left to the gyro drifts by 18° a minute. The
    /// carried field must be learned (within 0.5 µT), the heading must stay
    /// within 2° of the truth, and the readings must count as disturbed.
    @Test func magnetFixedToTheTurningBoardIsLearnedAndTheHeadingHolds() throws {
        var sim = MotionSimulation(seed: 21)
        var fusion = AttitudeFusion()
        let magnet = Vector3(6, -4, -5) // µT; |B| changes by up to ±20 %
        var worst = 0.0, naiveWorst = 0.0, learnedAt: Double?
        var disturbed = 0, samples = 0
        for i in 0..<9_000 { // 90 s
            let t = Double(i) * dt
            if t >= 30 {
                sim.bodyFieldOffset = magnet
                sim.gyroBias = Vector3(0.3, -0.2, 0.3) * Angle.radiansPerDegree
            }
            let r = sim.step(rate: Self.rate(t), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            let err = headingError(fusion.attitude, sim.truth)
            if t >= 30 {
                worst = max(worst, err)
                naiveWorst = max(naiveWorst, headingError(naiveCompass(r), sim.truth))
                samples += 1
                if fusion.isMagneticallyDisturbed { disturbed += 1 }
                if learnedAt == nil, fusion.bodyFieldOffset != nil { learnedAt = t }
            }
        }
        #expect(naiveWorst > 15, "the magnet must matter: a plain compass is off by \(naiveWorst)°")
        let at = try #require(learnedAt, "the carried field was never learned")
        #expect(at < 45, "learned at \(at) s")
        let offset = try #require(fusion.bodyFieldOffset)
        #expect((offset - magnet).length < 0.5, "offset \(offset), truth \(magnet)")
        #expect(worst < 2, "heading error with the magnet \(worst)°")
        #expect(Double(disturbed) > 0.5 * Double(samples), "disturbed \(disturbed) of \(samples)")
        #expect(fusion.headingUncertainty < 5)
    }

    /// The magnet is taken off at 60 s while the board turns: the offset must be
    /// dropped within a second and a half, and the heading must stay right.
    @Test func removedMagnetIsDetected() throws {
        var sim = MotionSimulation(seed: 22)
        var fusion = AttitudeFusion()
        let magnet = Vector3(-5, 7, 4)
        var droppedAt: Double?, worstAfter = 0.0, hadOffset = false
        for i in 0..<9_000 {
            let t = Double(i) * dt
            sim.bodyFieldOffset = (20..<60).contains(t) ? magnet : .zero
            let r = sim.step(rate: Self.rate(t), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            if i == 5_999 { hadOffset = fusion.bodyFieldOffset != nil }
            if t >= 60 {
                if droppedAt == nil, fusion.bodyFieldOffset == nil { droppedAt = t }
                worstAfter = max(worstAfter, headingError(fusion.attitude, sim.truth))
            }
        }
        #expect(hadOffset, "the magnet was never learned")
        let at = try #require(droppedAt, "the offset was never dropped")
        #expect(at < 61.5, "dropped at \(at) s")
        #expect(fusion.bodyFieldOffset == nil)
        #expect(worstAfter < 2, "heading error after removal \(worstAfter)°")
        #expect(!fusion.isMagneticallyDisturbed)
    }

    /// A magnet fixed in the room: the board turns past it again and again (a
    /// strong field for about 2 s each time, fixed in the earth frame). It must
    /// never be taken for a field carried with the board.
    @Test func magnetFixedInTheRoomIsNotTakenForACarriedOne() {
        var sim = MotionSimulation(seed: 23)
        var fusion = AttitudeFusion()
        var everCarried = false, worst = 0.0
        for i in 0..<9_000 {
            let t = Double(i) * dt
            let phase = (t - 20).truncatingRemainder(dividingBy: 8) // a pass every 8 s from 20 s on
            let closeness = t < 20 ? 0 : exp(-pow(phase - 4, 2)) // peaks mid-pass
            sim.earthFieldOffset = Vector3(12, -20, 8) * closeness
            let r = sim.step(rate: Self.rate(t), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            everCarried = everCarried || fusion.bodyFieldOffset != nil
            if t > 10 { worst = max(worst, headingError(fusion.attitude, sim.truth)) }
        }
        #expect(!everCarried)
        #expect(worst < 3, "heading error \(worst)°")
    }

    /// A lasting change of the field in the room (the board carried next to a
    /// steel cabinet) while it turns in place: also not a carried field. It
    /// comes in one step, so it is removed at first as a step of the board's
    /// field (``FieldStep``), which the board's turning then rules out.
    @Test func lastingRoomFieldIsNotTakenForACarriedOne() {
        var sim = MotionSimulation(seed: 24)
        var fusion = AttitudeFusion()
        var everCarried = false
        for i in 0..<9_000 {
            let t = Double(i) * dt
            sim.earthFieldOffset = t >= 30 ? Vector3(4, -5, 3) : .zero
            let r = sim.step(rate: Self.rate(t), dt: dt)
            fusion.update(acceleration: r.acceleration, magneticField: r.magneticField, angularRate: r.angularRate, dt: dt)
            everCarried = everCarried || fusion.bodyFieldOffset != nil
        }
        #expect(!everCarried)
    }

    /// Still for 10 s, then turning every which way at about 40–60 °/s.
    static func rate(_ t: Double) -> Vector3 {
        t < 10 ? .zero : Vector3(0.6 * sin(0.5 * t), 0.5 * cos(0.37 * t), 0.7 * sin(0.23 * t + 1))
    }

    private func naiveCompass(_ r: MotionSimulation.Reading) -> Quaternion {
        let up = r.acceleration.normalized
        let east = r.magneticField.cross(up).normalized
        return Quaternion(rotationMatrix: Matrix3(rows: east, up.cross(east), up))
    }
}
