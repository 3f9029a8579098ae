import Foundation
import LodestoneCore
import Testing
@testable import LodestoneSimulation

/// Each ready-made scenario does what its description promises.
@Suite struct ScenarioCatalogTests {
    @Test func levelTurnTurnsByRateTimesDuration() {
        let turn = Scenario.levelTurn(.init(rate: 0.05, turnDuration: 300))
        #expect(turn.duration >= 300 + 20)
        let h0 = turn.attitude.heading(0).value, h1 = turn.attitude.heading(turn.duration).value
        #expect(abs(h1 - h0 - 15) < 1e-9)
        #expect(abs(turn.attitude.state(at: 150).rate.z + 0.05 * Angle.radiansPerDegree) < 1e-15)
        #expect(turn.attitude.state(at: 5).rate.length == 0)
    }

    /// The board's up axis points every way (all 26 directions of a cube's faces,
    /// edges and corners, within 35°), and it spends time upside down.
    @Test func tumbleVisitsAllOrientations() {
        let tumble = Scenario.tumble(.init(seed: 11))
        var directions: [Vector3] = []
        for x in -1...1 { for y in -1...1 { for z in -1...1 where x != 0 || y != 0 || z != 0 {
            directions.append(Vector3(Double(x), Double(y), Double(z)).normalized)
        } } }
        var seen = Set<Int>()
        var upsideDown = 0, count = 0
        var fastest = 0.0
        for i in 0..<6000 {
            let k = tumble.kinematics(at: Double(i) * 0.1)
            let up = k.attitude.conjugate.rotate(.unitZ)
            for (j, d) in directions.enumerated() where up.dot(d) > cos(35 * Angle.radiansPerDegree) { seen.insert(j) }
            if up.z < 0 { upsideDown += 1 }
            count += 1
            fastest = max(fastest, k.rate.length * Angle.degreesPerRadian)
        }
        #expect(seen.count == 26, "up axis seen near \(seen.count) of 26 directions")
        #expect(Double(upsideDown) / Double(count) > 0.2)
        #expect(fastest > 60 && fastest < 400, "peak rate \(fastest) °/s")
    }

    /// Cruising 10–30 m/s, turns at 0.1–0.3 g, braking, a stop, a few degrees of roll.
    @Test func driveStaysWithinItsEnvelope() {
        let drive = Scenario.drive(.init(seed: 21))
        let g = 9.80665
        var maxSpeed = 0.0, maxLateral = 0.0, maxBraking = 0.0, maxRoll = 0.0, maxPitch = 0.0
        var slowTurning = false, stopped = 0.0, cruising = 0.0
        let dt = 0.05
        for i in 0..<Int(drive.duration / dt) {
            let t = Double(i) * dt
            let v = drive.motion.speed(t), yaw = drive.motion.course(t).rate * Angle.radiansPerDegree
            let lateral = abs(v.value * yaw)
            maxSpeed = max(maxSpeed, v.value)
            maxLateral = max(maxLateral, lateral)
            maxBraking = max(maxBraking, -v.rate)
            maxRoll = max(maxRoll, abs(drive.attitude.roll(t).value))
            maxPitch = max(maxPitch, abs(drive.attitude.pitch(t).value))
            if abs(yaw) > 0.001, v.value < 9.9 { slowTurning = true }
            if v.value < 0.01 { stopped += dt } else if v.value >= 9.99 { cruising += dt }
        }
        #expect(maxSpeed <= 30 + 1e-9 && maxSpeed > 25)
        #expect(maxLateral <= 0.3 * g + 1e-9 && maxLateral > 0.25 * g, "peak lateral \(maxLateral / g) g")
        #expect(maxBraking > 2 && maxBraking <= 3.5 + 1e-9)
        #expect(!slowTurning, "turns are taken at cruising speed")
        #expect(stopped > 30, "parked at both ends and stopped at a light: \(stopped) s")
        #expect(cruising > 0.8 * (drive.duration - stopped - 40))
        #expect(maxRoll > 1.5 && maxRoll < 4, "roll up to \(maxRoll)°")
        #expect(maxPitch > 0.7 && maxPitch < 3, "pitch up to \(maxPitch)°")
    }

    @Test func boatRollsPitchesAndHeaves() {
        let boat = Scenario.boat(.init(seed: 31))
        var roll = 0.0, pitch = 0.0, heave = 0.0, mastAcceleration = 0.0
        for i in 0..<12_000 {
            let t = Double(i) * 0.05
            roll = max(roll, abs(boat.attitude.roll(t).value))
            pitch = max(pitch, abs(boat.attitude.pitch(t).value))
            heave = max(heave, abs(boat.motion.height(t).value))
            let k = boat.kinematics(at: t)
            mastAcceleration = max(mastAcceleration, (k.acceleration - boat.motion.state(at: t).acceleration).length)
        }
        #expect(roll > 17 && roll < 25, "roll ±\(roll)°")
        #expect(pitch > 6 && pitch < 10, "pitch ±\(pitch)°")
        #expect(heave > 0.8 && heave < 1.3, "heave ±\(heave) m")
        #expect(mastAcceleration > 0.8, "the mast adds \(mastAcceleration) m/s²")
    }

    /// Steps show in the vertical specific force at the cadence.
    @Test func walkHasStepsAtTheCadence() {
        let walk = Scenario.walk(.init(duration: 120, cadence: 1.9, seed: 3))
        var r = ScenarioRecording(scenario: walk, sensors: .ideal, rate: 100)
        var vertical: [Double] = []
        while let s = r.nextSample() {
            let f = r.truth.kinematics.attitude.rotate(s.acceleration)
            if r.truth.kinematics.time > 20 { vertical.append(f.z - 9.80665) }
        }
        func power(_ frequency: Double) -> Double {
            var c = 0.0, s = 0.0
            for (i, v) in vertical.enumerated() {
                let x = 2 * Double.pi * frequency * Double(i) / 100
                c += v * cos(x)
                s += v * sin(x)
            }
            return c * c + s * s
        }
        let atCadence = power(1.9)
        for other in [0.7, 1.3, 2.6, 3.1] { #expect(atCadence > 10 * power(other)) }
        let rms = (vertical.map { $0 * $0 }.reduce(0, +) / Double(vertical.count)).squareRoot()
        #expect(rms > 1 && rms < 4, "vertical RMS \(rms) m/s²")
    }

    @Test func batteryCasesAreDistinctAndComplete() {
        let cases = SimulationBattery.cases
        #expect(Set(cases.map(\.name)).count == cases.count)
        let turns = cases.filter { $0.kind == .levelTurn }
        #expect(Set(turns.map(\.rate)) == [25, 50, 100, 200, 400, 1000])
        for c in turns { #expect(c.scenario.duration >= 320, "\(c.name)") }
        #expect(cases.contains { $0.sensors.magnetometer.rate == 20 && $0.rate == 200 })
        #expect(cases.contains { $0.sensors.gyroscope.bias.length * Angle.degreesPerRadian > 1 })
        #expect(cases.filter { $0.kind == .driveWithSpeed }.allSatisfy { $0.sensors.groundSpeed != nil })
        #expect(cases.filter { $0.kind == .drive }.allSatisfy { $0.sensors.groundSpeed == nil })
        for c in cases {
            #expect(c.calibrationStatus.fitErrorPercent > 0.2 && c.calibrationStatus.fitErrorPercent < 2, "\(c.name)")
        }
    }
}
