import Foundation
import Testing
@testable import LodestoneCore

/// The room's field as a step removed in the earth frame: when it starts,
/// how its uncertainty grows, and each way it ends.
@Suite struct RoomFieldStepTests {
    static let gateSquared = 9.0
    static let motor = RoomFieldStep.Field(earth: Vector3(6, 5, 4), variance: 0.5)
    static let earth = Vector3(0, 20, -46)

    @Test func aStepIsRemovedUntilTheFieldStepsBack() throws {
        var room = RoomFieldStep()
        room.stepped(by: Self.motor, gateSquared: Self.gateSquared)
        #expect(try #require(room.removed).earth == Self.motor.earth)
        let elsewhere = RoomFieldStep.Field(earth: Vector3(-6, 5, -4), variance: 0.5)
        let wentBack = room.steppedBack(by: elsewhere, gateSquared: Self.gateSquared)
        #expect(!wentBack, "another step is no step back")
        #expect(room.removed != nil)
        let back = RoomFieldStep.Field(earth: Vector3(-5.8, -5.1, -4.2), variance: 0.5)
        let cameBack = room.steppedBack(by: back, gateSquared: Self.gateSquared)
        #expect(cameBack)
        #expect(room.removed == nil)
    }

    @Test func stepsAddUpAndWhatIsLeftWithinTheGateIsNothing() throws {
        var room = RoomFieldStep()
        room.stepped(by: Self.motor, gateSquared: Self.gateSquared)
        room.stepped(by: .init(earth: Vector3(1, 0, 0), variance: 0.5), gateSquared: Self.gateSquared)
        let both = try #require(room.removed)
        #expect(both.earth == Vector3(7, 5, 4) && both.variance == 1)
        // What is left, (0.5, 0, 0), is within 3 standard deviations of a variance of 1.5.
        room.stepped(by: .init(earth: Vector3(-6.5, -5, -4), variance: 0.5), gateSquared: Self.gateSquared)
        #expect(room.removed == nil)
    }

    /// Known where it was measured: the variance grows toward the step's size
    /// squared (77 µT²) over the growth time, and no further.
    @Test func theStepsVarianceGrowsTowardItsSize() throws {
        var room = RoomFieldStep()
        room.aged(dt: 1, growthTime: 60)
        #expect(room.removed == nil, "no step, nothing to age")
        room.stepped(by: Self.motor, gateSquared: Self.gateSquared)
        room.aged(dt: 6, growthTime: 60)
        let early = try #require(room.removed).variance
        #expect(abs(early - (0.5 + 76.5 * 0.1)) < 1e-9)
        for _ in 0..<10_000 { room.aged(dt: 1, growthTime: 60) }
        let late = try #require(room.removed).variance
        #expect(late <= 77 + 1e-9 && late > 76.9)
    }

    /// A faded field ends once the readings have agreed for the longest time
    /// more than twice the time they did not: one reading in a few may miss a
    /// test near its edge, and must not start the time again.
    @Test func aFadedFieldEndsOnlyAfterAgreeingForTheLongestTimeNet() {
        var room = RoomFieldStep()
        room.stepped(by: Self.motor, gateSquared: Self.gateSquared)
        func observe(_ agrees: Bool, _ times: Int) -> [Bool] {
            (0..<times).map { _ in room.observeFading(agrees: agrees, dt: 0.125, longest: 5) }
        }
        #expect(!observe(false, 100).contains(true), "disagreeing ends nothing")
        #expect(!observe(true, 32).contains(true), "4 s")
        #expect(!observe(false, 4).contains(true), "0.5 s of disagreement takes back 1 s")
        #expect(!observe(true, 15).contains(true), "4.875 s net")
        #expect(room.removed != nil)
        #expect(observe(true, 1) == [true], "ended at 5 s net")
        #expect(room.removed == nil)
    }

    @Test func aFadedFieldsTimeDoesNotGoBelowNothing() {
        var room = RoomFieldStep()
        room.stepped(by: Self.motor, gateSquared: Self.gateSquared)
        func observe(_ agrees: Bool, _ times: Int) -> [Bool] {
            (0..<times).map { _ in room.observeFading(agrees: agrees, dt: 0.125, longest: 5) }
        }
        _ = observe(true, 8)
        _ = observe(false, 100)
        #expect(!observe(true, 39).contains(true))
        #expect(observe(true, 1) == [true], "5 s of agreement after a long disagreement end it")
    }

    /// A carried field's tentative step, dropped as the board turned: the
    /// room's when the readings are still off the reference by it.
    @Test(arguments: [(Vector3(6.2, 4.9, 4.1), true), (Vector3(0.3, -0.2, 0.1), false), (Vector3(-6, -5, -4), false)])
    func aDroppedCarriedStepIsTheRoomsWhenTheReadingsStillShowIt(residual: Vector3, isRoom: Bool) {
        var room = RoomFieldStep()
        room.tookCarriedStep(Self.motor)
        room.carriedStepResolved(residual: residual, reference: Self.earth, allowance: 0.5, gateSquared: Self.gateSquared)
        #expect((room.removed != nil) == isRoom, "residual \(residual)")
        room.carriedStepResolved(residual: Self.motor.earth, reference: Self.earth, allowance: 0.5, gateSquared: Self.gateSquared)
        #expect((room.removed != nil) == isRoom, "a step is resolved once")
    }

    /// While the step was taken for a carried field's, the heading turned
    /// 15° with it: the readings' departure is the step turned about up, far
    /// from the step as a vector, but as strong across and along up.
    @Test func aDroppedCarriedStepIsTheRoomsThoughTheHeadingTurnedMeanwhile() {
        var room = RoomFieldStep()
        room.tookCarriedStep(Self.motor)
        let turn = 15 * Angle.radiansPerDegree
        let field = Self.earth + Self.motor.earth
        let turned = Vector3(field.x * cos(turn) + field.y * sin(turn), -field.x * sin(turn) + field.y * cos(turn), field.z)
        let residual = turned - Self.earth
        #expect((residual - Self.motor.earth).squaredLength > Self.gateSquared * 1, "no match as a vector")
        room.carriedStepResolved(residual: residual, reference: Self.earth, allowance: 0.5, gateSquared: Self.gateSquared)
        #expect(room.removed != nil)
    }

    @Test func aCarriedStepKeptByTheTurningIsNotTheRooms() {
        var room = RoomFieldStep()
        room.tookCarriedStep(Self.motor)
        room.carriedStepResolved(residual: nil, reference: Self.earth, allowance: 0.5, gateSquared: Self.gateSquared)
        room.carriedStepResolved(residual: Self.motor.earth, reference: Self.earth, allowance: 0.5, gateSquared: Self.gateSquared)
        #expect(room.removed == nil)
    }
}
