import Foundation
import Testing
@testable import LodestoneCore

/// Speed aiding's acceleration along the track comes from successive speed
/// reports, which samples carry held between updates. A report that repeats
/// the last speed (a parked car's 0.000, a cruise control's steady speed) is a
/// report of no change, not no report.
@Suite struct VehicleAccelerationTests {
    let dt = 0.01
    let north = Vector3(0, 1, 0)

    struct Step {
        var time: Double
        /// The acceleration along the track the speed gives, m/s².
        var value: Double
        var lag: Double
    }

    /// Speed reports every `interval` s, held between them, from `speed(t)`,
    /// and a level accelerometer that feels the speed's change at once.
    func alongTrack(seconds: Double, interval: Double = 1, speed: @escaping (Double) -> Double) -> [Step] {
        var vehicle = VehicleAcceleration()
        var held = speed(0), nextReport = interval
        var out: [Step] = []
        for i in 1...Int((seconds / dt).rounded()) {
            let t = Double(i) * dt
            if t >= nextReport - 1e-9 {
                held = speed(t)
                nextReport += interval
            }
            let felt = (speed(t + dt / 2) - speed(t - dt / 2)) / dt
            let a = vehicle.update(speed: held, course: 0, rate: .zero, forward: north, rotation: .identity,
                                   specificForce: Vector3(0, felt, 9.80665), dt: dt)
            out.append(Step(time: t, value: a?.y ?? .nan, lag: vehicle.alongTrackLag))
        }
        return out
    }

    /// Braking from 20 m/s at 2.5 m/s² to a stop, then parked, reporting 0.
    @Test func aStopEndsTheBrakingItFollowed() {
        let a = alongTrack(seconds: 20) { t in max(0, 20 - 2.5 * t) }
        let braking = a.filter { $0.time > 4 && $0.time < 8 }.map(\.value)
        let parked = a.filter { $0.time > 13 }.map(\.value)
        #expect(braking.allSatisfy { abs($0 + 2.5) < 0.6 }, "braking read as \(braking.min()!)…\(braking.max()!) m/s²")
        #expect(parked.allSatisfy { abs($0) < 0.05 }, "parked read as \(parked.min()!)…\(parked.max()!) m/s²")
    }

    /// The braking's end shows in the accelerometer at once and in the speed
    /// only a report later: the lag says so meanwhile, and little while the
    /// braking holds.
    @Test func theEndOfABrakingShowsAsLag() {
        let a = alongTrack(seconds: 14) { t in max(0, 20 - 2.5 * t) }
        let steady = a.filter { $0.time > 5 && $0.time < 7.9 }.map(\.lag)
        let ended = a.filter { $0.time > 8.3 && $0.time < 9 }
        #expect(steady.allSatisfy { $0 < 0.3 }, "lag \(steady.max()!) m/s² while braking steadily")
        #expect(ended.allSatisfy { $0.lag > 0.8 && abs($0.value) > 0.5 },
                "the speed still brakes; the lag says \(ended.map(\.lag).min()!) m/s²")
    }

    /// Once the speed shows the braking's end, the tilt reading still holds
    /// what was taken out meanwhile for its memory (a second): 2.5 m/s² for a
    /// second and a half, of which 1.2 m/s² is left half a second on. The lag
    /// says so, where it fell to the speed's lag at once.
    @Test func theTiltReadingRemembersALagTheSpeedCaughtUpWith() {
        let a = alongTrack(seconds: 14) { t in max(0, 20 - 2.5 * t) }
        let caughtUp = a.filter { $0.time > 9.6 && $0.time < 10 }
        #expect(caughtUp.allSatisfy { abs($0.value) < 0.3 }, "the speed shows the stop: \(caughtUp.map(\.value).max()!) m/s²")
        #expect(caughtUp.allSatisfy { $0.lag > 0.5 }, "the lag says \(caughtUp.map(\.lag).min()!) m/s²")
        let parked = a.filter { $0.time > 13 }.map(\.lag)
        #expect(parked.allSatisfy { $0 < 0.05 }, "parked, the lag is gone: \(parked.max()!) m/s²")
    }

    /// Speeding up from 10 to 25 m/s, then holding 25 m/s exactly.
    @Test func aSteadySpeedEndsTheSpeedingUpItFollowed() {
        let a = alongTrack(seconds: 30, interval: 0.2) { t in min(25, 10 + 1.5 * t) }
        let cruising = a.filter { $0.time > 14 }.map(\.value)
        #expect(cruising.allSatisfy { abs($0) < 0.05 }, "cruising read as \(cruising.min()!)…\(cruising.max()!) m/s²")
    }

    /// A steady change whose reports all differ keeps its acceleration.
    @Test func aSteadyChangeIsFollowed() {
        let a = alongTrack(seconds: 10) { t in 5 + 0.8 * t }
        let late = a.filter { $0.time > 4 }.map(\.value)
        #expect(late.allSatisfy { abs($0 - 0.8) < 0.01 })
    }

    /// A car at 7 m/s in a roundabout, turning 25 °/s, with the course
    /// reported once a second and held between reports, 30° off the board's
    /// forward axis (the board mounted askew): the centripetal acceleration
    /// turns with the car, not with the held course, which lags by up to 25°
    /// (1.3 m/s² across the true one).
    @Test func aCourseHeldBetweenReportsTurnsWithTheBoard() {
        var vehicle = VehicleAcceleration()
        let rate = -25 * Angle.radiansPerDegree, speed = 7.0, mounting = 30 * Angle.radiansPerDegree
        var held = 0.0, worst = 0.0
        for i in 0..<Int(20 / dt) {
            let t = Double(i) * dt
            let track = rate * -t   // clockwise from north, rad
            if i % Int(1 / dt) == 0 { held = track }
            // The board's forward axis points `mounting` left of the track.
            let r = Quaternion(axis: Vector3(0, 0, 1), angle: mounting - track).rotationMatrix
            let a = vehicle.update(speed: speed, course: held, rate: Vector3(0, 0, rate), forward: north, rotation: r,
                                   specificForce: Vector3(0, 0, 9.80665), dt: dt)
            let inward = Vector3(cos(track), -sin(track), 0) * (speed * -rate)   // to the right of the track
            if t > 2, let a { worst = max(worst, (a - inward).length) }
        }
        #expect(worst < 0.05, "the centripetal acceleration off by up to \(worst) m/s²")
    }

    /// A log whose speed changed a nanosecond apart, then held for hours:
    /// the held reports are counted in one step, not one by one.
    @Test func aNanosecondReportIntervalThenAnHourHeld() {
        var vehicle = VehicleAcceleration()
        let level = Vector3(0, 0, 9.80665)
        for (i, speed) in [10.0, 10.5, 11.0, 11.5].enumerated() {
            _ = vehicle.update(speed: speed, course: 0, rate: .zero, forward: north, rotation: .identity,
                               specificForce: level, dt: i == 0 ? 0.01 : 1e-9)
        }
        let held = vehicle.update(speed: 11.5, course: 0, rate: .zero, forward: north, rotation: .identity,
                                  specificForce: level, dt: 3_600)
        #expect(held.map { abs($0.y) < 1e-9 } == true)
    }
}
