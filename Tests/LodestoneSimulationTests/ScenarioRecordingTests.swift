import Foundation
import LodestoneCore
import Testing
@testable import LodestoneSimulation

/// Sampling, noise, bias and holding of the simulated sensors.
@Suite struct ScenarioRecordingTests {
    static let still = Scenario(name: "still", summary: "", duration: 200, attitude: .fixed(BoardAttitude(heading: 10)))

    static func samples(_ r: inout ScenarioRecording) -> [SensorSample] {
        var out: [SensorSample] = []
        while let s = r.nextSample() { out.append(s) }
        return out
    }

    @Test func sameSeedSameSamplesAndStreamsApart() {
        let walk = Scenario.walk(.init(duration: 30, seed: 2))
        var a = ScenarioRecording(scenario: walk, seed: 5), b = ScenarioRecording(scenario: walk, seed: 5)
        var c = ScenarioRecording(scenario: walk, seed: 6)
        var noGyro = ScenarioRecording(scenario: walk, includesGyroscope: false, seed: 5)
        for _ in 0..<1000 {
            let x = a.nextSample()!, y = b.nextSample()!, z = c.nextSample()!, w = noGyro.nextSample()!
            #expect(x == y)
            #expect(x.acceleration != z.acceleration)
            #expect(w.angularRate == nil)
            #expect(w.acceleration == x.acceleration && w.magneticField == x.magneticField,
                    "leaving the gyroscope out changes nothing else")
        }
    }

    @Test(arguments: [25.0, 400])
    func whiteNoiseFollowsTheDensity(_ rate: Double) {
        let density = 0.01 * Angle.radiansPerDegree
        let sensors = SensorSuite(gyroscope: GyroscopeModel(noiseDensity: density),
                                  accelerometer: AccelerometerModel(noiseDensity: 0.003))
        var r = ScenarioRecording(scenario: Self.still, sensors: sensors, rate: rate)
        let s = Self.samples(&r).prefix(20_000)
        let gyro = (s.map { $0.angularRate!.x * $0.angularRate!.x }.reduce(0, +) / Double(s.count)).squareRoot()
        let accel = (s.map { $0.acceleration.y * $0.acceleration.y }.reduce(0, +) / Double(s.count)).squareRoot()
        #expect(abs(gyro / (density * rate.squareRoot()) - 1) < 0.03)
        #expect(abs(accel / (0.003 * rate.squareRoot()) - 1) < 0.03)
    }

    /// The bias walks: steps of σ·√dt, so after T seconds it has spread by σ·√T.
    @Test func gyroscopeBiasWalks() {
        let walk = 0.002 * Angle.radiansPerDegree
        let bias = Vector3(0.5, -0.3, 1) * Angle.radiansPerDegree
        var r = ScenarioRecording(scenario: Self.still, sensors: SensorSuite(gyroscope: GyroscopeModel(bias: bias, biasRandomWalk: walk)),
                                  rate: 100)
        var steps: [Double] = []
        var previous = bias
        #expect(r.nextSample()!.angularRate == bias, "the walk starts at the turn-on bias")
        while let s = r.nextSample() {
            #expect(s.angularRate == r.truth.gyroscopeBias, "no noise: the reading is the bias")
            steps += [r.truth.gyroscopeBias.x - previous.x, r.truth.gyroscopeBias.y - previous.y]
            previous = r.truth.gyroscopeBias
        }
        let sigma = (steps.map { $0 * $0 }.reduce(0, +) / Double(steps.count)).squareRoot()
        #expect(abs(sigma / (walk * 0.01.squareRoot()) - 1) < 0.02)
    }

    @Test func slowerMagnetometerIsHeld() {
        let turn = Scenario.levelTurn(.init(rate: 30, turnDuration: 20, holdBefore: 1, holdAfter: 1))
        var sensors = SensorSuite.ideal
        sensors.magnetometer.rate = 20
        var r = ScenarioRecording(scenario: turn, sensors: sensors, rate: 200)
        let s = Self.samples(&r)
        let environment = SimulatedEnvironment()
        for (i, sample) in s.enumerated() {
            let reading = Double(i / 10) / 20
            let expected = turn.kinematics(at: reading).attitude.conjugate.rotate(environment.field)
            #expect((sample.magneticField - expected).length < 1e-9, "sample \(i) holds the reading of \(reading) s")
        }
    }

    @Test func groundSpeedArrivesLateAndIsHeld() {
        let drive = Scenario.drive(.init(duration: 120, seed: 9))
        var sensors = SensorSuite.ideal
        sensors.groundSpeed = GroundSpeedModel(rate: 2, latency: 0.3, speedNoise: 0)
        var r = ScenarioRecording(scenario: drive, sensors: sensors, environment: SimulatedEnvironment(declination: 5), rate: 50)
        var i = 0
        while let s = r.nextSample() {
            let arrival = Double(i / 25) / 2
            let v = drive.kinematics(at: max(0, arrival - 0.3)).referenceVelocity
            let speed = (v.x * v.x + v.y * v.y).squareRoot()
            #expect(abs((s.speed ?? -1) - speed) < 1e-9)
            if speed >= 1, let track = s.track {
                #expect(abs(Angle.difference(from: atan2(v.x, v.y) * Angle.degreesPerRadian + 5, to: track)) < 1e-9,
                        "track is from true north")
            } else {
                #expect(s.track == nil || speed >= 1)
            }
            i += 1
        }
    }

    @Test func readingsAreRoundedToTheResolution() {
        var r = ScenarioRecording(scenario: .walk(.init(duration: 5)), sensors: .typical)
        for s in Self.samples(&r) {
            for v in [s.acceleration.x * 1e4, s.magneticField.y * 1e3, s.angularRate!.z * 1e5] {
                #expect(abs(v - v.rounded()) < 1e-6)
            }
        }
    }
}
