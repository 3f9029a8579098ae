import Foundation
import LodestoneCore
import Testing
@testable import LodestoneSimulation

/// What ideal sensors read, against the physics worked out by hand.
@Suite struct SensorPhysicsTests {
    static let g = 9.80665

    static func first(_ scenario: Scenario, sensors: SensorSuite = .ideal, rate: Double = 100,
                      environment: SimulatedEnvironment = .init()) -> [SensorSample] {
        var r = ScenarioRecording(scenario: scenario, sensors: sensors, environment: environment, rate: rate)
        var samples: [SensorSample] = []
        while let s = r.nextSample() { samples.append(s) }
        return samples
    }

    @Test func accelerometerReadsGravityUpWhenFlatAndStill() throws {
        let still = Scenario(name: "still", summary: "", duration: 1, attitude: .fixed(BoardAttitude(heading: 123)))
        for s in Self.first(still) {
            #expect((s.acceleration - Vector3(0, 0, Self.g)).length < 1e-12)
            #expect((s.angularRate ?? Vector3(9, 9, 9)).length < 1e-15)
        }
        let tilted = BoardAttitude(heading: 40, pitch: 20, roll: -30)
        let hold = Scenario(name: "tilted", summary: "", duration: 1, attitude: .fixed(tilted))
        let s = try #require(Self.first(hold).last)
        #expect((tilted.quaternion.rotate(s.acceleration) - Vector3(0, 0, Self.g)).length < 1e-12)
        #expect((tilted.quaternion.rotate(s.magneticField) - SimulatedEnvironment().field).length < 1e-12)
    }

    /// A car in a steady turn: the horizontal specific force is the centripetal v²/R.
    @Test func centripetalForceInASteadyTurn() {
        let v = 20.0, yawRate = 5.0 // °/s
        let radius = v / (yawRate * Angle.radiansPerDegree)
        let course = TimeFunction.linear(start: 30, rate: yawRate)
        let turn = Scenario(name: "circle", summary: "", duration: 20, attitude: AttitudePath(heading: course),
                            motion: PointMotion(speed: .constant(v), course: course))
        for s in Self.first(turn) {
            // Clockwise turn: the centre is to the right (+x), and so is the specific force.
            #expect(abs(s.acceleration.x - v * v / radius) < 1e-9)
            #expect(abs(s.acceleration.y) < 1e-9)
            #expect(abs(s.acceleration.z - Self.g) < 1e-9)
            #expect(abs(s.angularRate!.z + yawRate * Angle.radiansPerDegree) < 1e-12, "clockwise is −z")
        }
    }

    /// A mast 4 m above the roll axis, rolling ±20°: the sensor swings on a
    /// circle, p = 4·(sin φ, 0, cos φ), so its acceleration is the second
    /// derivative of that, plus gravity, seen from the rolled body.
    @Test func leverArmOfARollingMast() {
        let amplitude = 20 * Angle.radiansPerDegree, omega = 2 * Double.pi / 8
        let boat = Scenario(name: "mast", summary: "", duration: 16,
                            attitude: AttitudePath(heading: .zero, roll: .sinusoid(amplitude: 20, period: 8)),
                            leverArm: Vector3(0, 0, 4))
        for (i, s) in Self.first(boat, rate: 50).enumerated() {
            let t = Double(i) / 50
            let phi = amplitude * sin(omega * t)
            let phiDot = amplitude * omega * cos(omega * t)
            let phiDDot = -amplitude * omega * omega * sin(omega * t)
            let a = Vector3(4 * (cos(phi) * phiDDot - sin(phi) * phiDot * phiDot), 0,
                            4 * (-sin(phi) * phiDDot - cos(phi) * phiDot * phiDot))
            let f = a + Vector3(0, 0, Self.g)
            // Roll φ about the body y axis: the body sees the ENU vector turned back by φ.
            let expected = Vector3(f.x * cos(phi) - f.z * sin(phi), 0, f.x * sin(phi) + f.z * cos(phi))
            #expect((s.acceleration - expected).length < 1e-9, "t = \(t): \(s.acceleration) vs \(expected)")
        }
    }

    /// Integrating the recorded samples of an ideal gyroscope (trapezoid rule on
    /// the attitude, 400 Hz) follows a minute of tumbling within a hundredth of a degree.
    @Test func recordedGyroscopeIntegratesToTheTruth() {
        var r = ScenarioRecording(scenario: .tumble(.init(duration: 60, seed: 6)), sensors: .ideal, rate: 400)
        var q = r.truth.kinematics.attitude
        var previous: Vector3?
        var worst = 0.0
        while let s = r.nextSample() {
            if let p = previous { q = (q * Quaternion(rotationVector: (p + s.angularRate!) / 2 / 400)).normalized }
            previous = s.angularRate
            worst = max(worst, (q.conjugate * r.truth.kinematics.attitude).angle * Angle.degreesPerRadian)
        }
        #expect(worst < 0.01, "integrated gyroscope strays \(worst)° from the truth")
    }

    /// A board mounted turned 90° (its +x along the car's forward axis): it reads
    /// the car's specific force and rate in its own axes, and its attitude is
    /// the car's turned by the mounting.
    @Test func mountingTurnsTheReadings() {
        let mount = Quaternion(axis: .unitZ, angle: Double.pi / 2)
        var car = Scenario.drive(.init(duration: 120, seed: 2))
        var mounted = car
        mounted.mounting = mount
        car.leverArm = .zero
        mounted.leverArm = .zero
        var a = ScenarioRecording(scenario: car, sensors: .ideal), b = ScenarioRecording(scenario: mounted, sensors: .ideal)
        while let s = a.nextSample(), let m = b.nextSample() {
            #expect((mount.rotate(m.acceleration) - s.acceleration).length < 1e-9)
            #expect((mount.rotate(m.angularRate!) - s.angularRate!).length < 1e-12)
            #expect(abs(b.truth.kinematics.attitude.dot(a.truth.kinematics.attitude * mount)) > 1 - 1e-12)
        }
    }

    /// Heave: the truth position integrated from the velocity follows the height function.
    @Test func positionFollowsTheHeave() {
        let boat = Scenario.boat(.init(duration: 120, seed: 4))
        var r = ScenarioRecording(scenario: boat, sensors: .ideal, rate: 50)
        var worst = 0.0
        while r.nextSample() != nil {
            let t = r.truth.kinematics.time
            let z = boat.motion.height(t).value + boat.attitude.state(at: t).attitude.rotate(boat.leverArm).z
            worst = max(worst, abs(r.truth.position.z - z))
        }
        #expect(worst < 1e-5, "position drifts \(worst) m from the heave")
    }

    /// Still, an ideal gyroscope that senses the Earth reads its rate: 15 °/h, along the
    /// polar axis, which points up at the latitude and toward true north.
    @Test func stillGyroscopeReadsTheEarthsRate() throws {
        let environment = SimulatedEnvironment(latitude: 50, declination: 10)
        let attitude = BoardAttitude(heading: 70, pitch: 10, roll: 5)
        let still = Scenario(name: "still", summary: "", duration: 1, attitude: .fixed(attitude))
        let sensors = SensorSuite(gyroscope: GyroscopeModel(sensesEarthRotation: true))
        let s = try #require(Self.first(still, sensors: sensors, environment: environment).first)
        let w = attitude.quaternion.rotate(s.angularRate!)
        #expect(abs(w.length * Angle.degreesPerRadian * 3600 - 15.041) < 0.01)
        #expect(abs(asin(w.z / w.length) * Angle.degreesPerRadian - 50) < 1e-9)
        // True north lies 10° west of magnetic north (y): the horizontal part points there.
        #expect(abs(atan2(w.x, w.y) * Angle.degreesPerRadian + 10) < 1e-9)
    }
}
