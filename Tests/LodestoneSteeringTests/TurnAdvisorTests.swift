import Foundation
import Testing
import LodestoneCore
@testable import LodestoneSteering

@Suite struct TurnAdvisorTests {
    /// Every band edge on both sides, for the default settings (tolerance 10°, margin 3°).
    static let edges: [Double] = [10, 67.5, 112.5, 157.5, -10, -67.5, -112.5, -157.5]

    /// A delta jittering ±1° around an edge keeps whichever instruction it came in with.
    @Test(arguments: edges)
    func noFlappingAtEdge(edge: Double) throws {
        for approach in [-5.0, 5.0] {
            var advisor = try TurnAdvisor()
            var turn: TurnInstruction
            let entered = advisor.updateTurn(delta: edge + approach)
            for step in 0..<40 {
                let delta = edge + (step % 2 == 0 ? -1.0 : 1.0)
                turn = advisor.updateTurn(delta: delta)
                #expect(turn == entered, "edge \(edge), from \(approach), delta \(delta)")
            }
        }
    }

    /// The instruction changes only once the delta is past the edge by more than the margin.
    @Test(arguments: edges)
    func changesPastEdgePlusMargin(edge: Double) throws {
        for direction in [-1.0, 1.0] {
            var advisor = try TurnAdvisor()
            var turn: TurnInstruction
            let inner = advisor.updateTurn(delta: edge - 5 * direction)
            let outer = TurnInstruction(delta: edge + 5 * direction, aheadTolerance: 10)
            #expect(inner != outer)
            turn = advisor.updateTurn(delta: edge + 2.9 * direction)
            #expect(turn == inner)
            turn = advisor.updateTurn(delta: edge + 3.1 * direction)
            #expect(turn == outer)
            turn = advisor.updateTurn(delta: edge + 1 * direction)
            #expect(turn == outer)
        }
    }

    @Test func turnAroundDoesNotFlipSidesAcross180() throws {
        var advisor = try TurnAdvisor()
        var turn: TurnInstruction
        turn = advisor.updateTurn(delta: 170)
        #expect(turn == .turnAround)
        for delta in [179.0, -179, 180, -180, 178, -177, 160, -160] {
            turn = advisor.updateTurn(delta: delta)
            #expect(turn == .turnAround)
        }
        // A sharp turn on either side is reached only past 157.5° − 3°.
        turn = advisor.updateTurn(delta: -155)
        #expect(turn == .turnAround)
        turn = advisor.updateTurn(delta: -154)
        #expect(turn == .sharpLeft)
    }

    @Test func jumpAcross180FromSharpRightTurnsAround() throws {
        var advisor = try TurnAdvisor()
        var turn: TurnInstruction
        turn = advisor.updateTurn(delta: 150)
        #expect(turn == .sharpRight)
        turn = advisor.updateTurn(delta: -175)
        #expect(turn == .turnAround)
    }

    @Test func zeroToleranceDoesNotFlapBetweenSlightLeftAndRight() throws {
        var advisor = try TurnAdvisor(settings: .init(aheadTolerance: 0))
        var turn: TurnInstruction
        turn = advisor.updateTurn(delta: 5)
        #expect(turn == .slightRight)
        for delta in [-1.0, 1, -2, 0, -2.9] {
            turn = advisor.updateTurn(delta: delta)
            #expect(turn == .slightRight)
        }
        turn = advisor.updateTurn(delta: -3.1)
        #expect(turn == .slightLeft)
    }

    @Test func arrivalHasHysteresis() throws {
        var advisor = try TurnAdvisor(settings: .init(arrivalRadius: 10, arrivalHysteresis: 5))
        var arrived: Bool
        let sequence: [(Double, Bool)] = [
            (20, false), (10.1, false), (10, true), (14, true), (9.5, true), (15, true),
            (15.1, false), (12, false), (10.5, false), (9.9, true),
        ]
        for (distance, expected) in sequence {
            arrived = advisor.updateArrival(distance: distance)
            #expect(arrived == expected, "distance \(distance)")
        }
        // Oscillating around the radius does not flap once arrived.
        for step in 0..<20 {
            arrived = advisor.updateArrival(distance: step % 2 == 0 ? 9 : 11)
            #expect(arrived)
        }
    }

    // Reference pair, GeographicLib GeodSolve 2.1.2 (`GeodSolve -i -p 12`):
    // 40.6413 -73.7781 → 1.3644 103.9915: azi1 3.305999961406743, azi2 177.487712386541261, s12 15346880.8065000046 m.
    static let jfk = try! GeoCoordinate(latitude: 40.6413, longitude: -73.7781)
    static let singapore = try! GeoCoordinate(latitude: 1.3644, longitude: 103.9915)

    @Test func adviceCombinesBearingTurnAndETA() throws {
        var advisor = try TurnAdvisor()
        let advice = advisor.advise(from: Self.jfk, to: Self.singapore, heading: 300, groundSpeed: 250)
        #expect(abs(advice.bearing - 3.305999961406743) < 1e-9)
        #expect(abs(advice.finalBearing - 177.487712386541261) < 1e-9)
        #expect(abs(advice.distance - 15346880.8065) < 1e-3)
        // 3.306 − 300 wraps to +63.306: a slight right.
        #expect(abs(try #require(advice.delta) - 63.305999961406743) < 1e-9)
        #expect(advice.turn == .slightRight)
        #expect(!advice.arrived)
        #expect(abs(try #require(advice.eta) - 15346880.8065 / 250) < 1e-6)
    }

    @Test func unknownHeadingOrSpeedGiveNil() throws {
        var advisor = try TurnAdvisor()
        for heading in [nil, Double.nan] {
            let advice = advisor.advise(from: Self.jfk, to: Self.singapore, heading: heading)
            #expect(advice.delta == nil && advice.turn == nil)
        }
        for speed in [nil, 0, 0.5, -1, Double.nan, .infinity] {
            let advice = advisor.advise(from: Self.jfk, to: Self.singapore, heading: 0, groundSpeed: speed)
            #expect(advice.eta == nil, "speed \(String(describing: speed))")
        }
        let fastEnough = advisor.advise(from: Self.jfk, to: Self.singapore, heading: 0, groundSpeed: 0.51)
        #expect(fastEnough.eta != nil)
    }

    @Test func arrivedGivesNoTurnAndForgetsTheHeldOne() throws {
        var advisor = try TurnAdvisor()
        var turn: TurnInstruction
        let target = try Geodesic.wgs84.direct(from: Self.jfk, bearing: 90, distance: 8).destination
        turn = advisor.updateTurn(delta: 100)
        #expect(turn == .right)
        let advice = advisor.advise(from: Self.jfk, to: target, heading: 0, groundSpeed: 1)
        #expect(advice.arrived)
        #expect(advice.delta == nil && advice.turn == nil)
        #expect(advisor.currentTurn == nil)
        #expect(abs(advice.distance - 8) < 1e-6)
        // The ETA countdown stops at arrival.
        #expect(advice.eta == nil)
    }

    /// Driving north past a target 1112 m ahead at 30 m/s: arrival is announced once,
    /// with the final distance, and the ETA counts down until then and stops.
    @Test func arrivalFiresOnceAndTheETAStops() throws {
        var advisor = try TurnAdvisor(settings: .init(arrivalRadius: 500))
        let target = try Geodesic.wgs84.direct(from: Self.jfk, bearing: 0, distance: 1112).destination
        var arrivals: [Double] = []
        var lastETA = Double.infinity
        for second in 0...80 {
            let position = try Geodesic.wgs84.direct(from: Self.jfk, bearing: 0, distance: 30 * Double(second)).destination
            let advice = advisor.advise(from: position, to: target, heading: 0, groundSpeed: 30)
            if advice.justArrived { arrivals.append(advice.distance) }
            if advice.arrived {
                #expect(advice.eta == nil, "second \(second)")
            } else if arrivals.isEmpty {
                let eta = try #require(advice.eta)
                #expect(eta < lastETA)
                lastETA = eta
            }
        }
        // 1112 − 30·21 = 482 m at the first update inside 500 m; left at 1112 + 505 m, never re-entered.
        #expect(arrivals.count == 1)
        #expect(abs(arrivals[0] - 482) < 1e-6)
    }

    /// Leaving the target beyond the hysteresis and coming back announces a new arrival.
    @Test func arrivalFiresAgainAfterLeaving() throws {
        var advisor = try TurnAdvisor(settings: .init(arrivalRadius: 10, arrivalHysteresis: 5))
        let distances: [Double] = [30, 9, 8, 14, 9, 16, 12, 7, 6]
        var fired: [Double] = []
        for d in distances {
            let position = try Geodesic.wgs84.direct(from: Self.jfk, bearing: 180, distance: d).destination
            if advisor.advise(from: position, to: Self.jfk, heading: nil).justArrived { fired.append(d) }
        }
        #expect(fired == [9, 7])
    }

    @Test func turnAroundSaysTheShorterSide() throws {
        var advisor = try TurnAdvisor()
        let target = try Geodesic.wgs84.direct(from: Self.jfk, bearing: 0, distance: 5000).destination
        // Target due north (bearing 0°): heading 170° → delta −170° → turn left; heading 190° → +170° → right.
        let left = advisor.advise(from: Self.jfk, to: target, heading: 170)
        #expect(left.turn == .turnAround && left.turnAroundSide == .left)
        let right = advisor.advise(from: Self.jfk, to: target, heading: 190)
        #expect(right.turn == .turnAround && right.turnAroundSide == .right)
        let ahead = advisor.advise(from: Self.jfk, to: target, heading: 0)
        #expect(ahead.turn == .ahead && ahead.turnAroundSide == nil)
        #expect(TurnSide(delta: 179) == .right && TurnSide(delta: -179) == .left && TurnSide(delta: 181) == .left)
    }

    @Test func atTheTargetItself() throws {
        var advisor = try TurnAdvisor(settings: .init(arrivalRadius: 0))
        let advice = advisor.advise(from: Self.jfk, to: Self.jfk, heading: 123)
        #expect(advice == SteeringAdvice(bearing: 0, finalBearing: 0, distance: 0, delta: nil, turn: nil, arrived: true, eta: nil,
                                         justArrived: true))
    }

    @Test func adviceEncodesWithoutAbsentFields() throws {
        let advice = SteeringAdvice(bearing: 12.5, finalBearing: 13, distance: 100, delta: -20, turn: .slightLeft, arrived: false, eta: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(advice), as: UTF8.self)
        #expect(json == #"{"arrived":false,"bearing":12.5,"delta":-20,"distance":100,"finalBearing":13,"justArrived":false,"turn":"slightLeft"}"#)
    }

    @Test func invalidSettingsAreRefusedByName() {
        #expect(throws: SteeringInputError.settingOutOfRange(name: "aheadTolerance", value: 70, allowed: "0 ≤ degrees < 67.5")) {
            try TurnAdvisor(settings: .init(aheadTolerance: 70))
        }
        for settings in [TurnAdvisor.Settings(turnHysteresis: -1), .init(turnHysteresis: 30), .init(arrivalRadius: .nan),
                         .init(arrivalHysteresis: -0.1), .init(minimumSpeedForETA: .infinity)] {
            #expect(throws: SteeringInputError.self) { try TurnAdvisor(settings: settings) }
        }
    }

    @Test func invalidCoordinatesAreRefused() throws {
        #expect(throws: SteeringInputError.latitudeOutOfRange(90.5)) { try GeoCoordinate(latitude: 90.5, longitude: 0) }
        #expect(throws: SteeringInputError.self) { try GeoCoordinate(latitude: .nan, longitude: 0) }
        #expect(throws: SteeringInputError.longitudeNotFinite(.infinity)) { try GeoCoordinate(latitude: 0, longitude: .infinity) }
        #expect(try GeoCoordinate(latitude: -90, longitude: 540).longitude == 540)
        #expect(SteeringInputError.latitudeOutOfRange(91).description.contains("[-90, 90]"))
    }
}
