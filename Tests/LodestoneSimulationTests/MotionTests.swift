import Foundation
import LodestoneCore
import Testing
@testable import LodestoneSimulation

/// The motion side of the simulator against independent computations: rates
/// from differentiating the attitude numerically, accelerations from
/// differentiating velocities, attitudes from integrating rates.
@Suite struct MotionTests {
    /// Body rate from the attitude alone: the rotation from q(t − h) to q(t + h), over 2h.
    static func numericalRate(_ path: AttitudePath, at t: Double, h: Double = 2e-5) -> Vector3 {
        let before = path.state(at: t - h).attitude, after = path.state(at: t + h).attitude
        return (before.conjugate * after).rotationVector / (2 * h)
    }

    static let paths: [(String, AttitudePath)] = [
        ("tumble", Scenario.tumble(.init(seed: 5)).attitude),
        ("drive", Scenario.drive(.init(seed: 5)).attitude),
        ("boat", Scenario.boat(.init(seed: 5)).attitude),
        ("walk", Scenario.walk(.init(seed: 5)).attitude),
        ("demo", MotionProfile.demo.attitudePath),
    ]

    @Test(arguments: 0..<5)
    func bodyRateIsTheDerivativeOfTheAttitude(_ which: Int) {
        let (name, path) = Self.paths[which]
        var worst = 0.0
        for i in 0..<400 {
            let t = 6 + Double(i) * 0.1373
            let exact = path.state(at: t).rate
            worst = max(worst, (exact - Self.numericalRate(path, at: t)).length)
        }
        #expect(worst < 1e-6, "\(name): worst body-rate difference \(worst) rad/s")
    }

    @Test(arguments: 0..<4)
    func angularAccelerationIsTheDerivativeOfTheRate(_ which: Int) {
        let (name, path) = Self.paths[which]
        var worst = 0.0
        let h = 2e-5
        for i in 0..<400 {
            let t = 6 + Double(i) * 0.1373
            let numerical = (path.state(at: t + h).rate - path.state(at: t - h).rate) / (2 * h)
            worst = max(worst, (path.state(at: t).angularAcceleration - numerical).length)
        }
        #expect(worst < 1e-4, "\(name): worst angular-acceleration difference \(worst) rad/s²")
    }

    /// Integrating the exact body rate (RK4 on q̇ = ½ q ω, 1 ms steps) for a
    /// minute of tumbling lands on the path's own attitude.
    @Test func integratedRateReproducesTheAttitude() {
        let path = Scenario.tumble(.init(seed: 8)).attitude
        let h = 0.001
        var q = path.state(at: 0).attitude
        func derivative(_ q: Quaternion, _ w: Vector3) -> Quaternion {
            let p = q * Quaternion(w: 0, x: w.x, y: w.y, z: w.z)
            return Quaternion(w: p.w / 2, x: p.x / 2, y: p.y / 2, z: p.z / 2)
        }
        func step(_ q: Quaternion, _ k: Quaternion, _ s: Double) -> Quaternion {
            Quaternion(w: q.w + k.w * s, x: q.x + k.x * s, y: q.y + k.y * s, z: q.z + k.z * s)
        }
        for i in 0..<60_000 {
            let t = Double(i) * h
            let w0 = path.state(at: t).rate, w1 = path.state(at: t + h / 2).rate, w2 = path.state(at: t + h).rate
            let k1 = derivative(q, w0)
            let k2 = derivative(step(q, k1, h / 2), w1)
            let k3 = derivative(step(q, k2, h / 2), w1)
            let k4 = derivative(step(q, k3, h), w2)
            q = Quaternion(w: q.w + h / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w),
                           x: q.x + h / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x),
                           y: q.y + h / 6 * (k1.y + 2 * k2.y + 2 * k3.y + k4.y),
                           z: q.z + h / 6 * (k1.z + 2 * k2.z + 2 * k3.z + k4.z)).normalized
        }
        let truth = path.state(at: 60).attitude
        let error = (q.conjugate * truth).angle * Angle.degreesPerRadian
        #expect(error < 1e-6, "attitude after 60 s of integrated rate is \(error)° off")
    }

    /// The profiles of the old scenarios (demo, holds, spin, tumble) give the same
    /// attitudes through their exact-rate paths.
    @Test func profilePathsMatchTheProfiles() {
        for profile in [MotionProfile.demo, .holds(tilt: 20), .spin(rate: 7, tilt: 10, duration: 30), .tumble(duration: 40)] {
            let path = profile.attitudePath
            for i in 0..<500 {
                let t = Double(i) * profile.duration / 499
                let a = profile.attitude(at: t), b = path.state(at: t).attitude
                #expect(abs(abs(a.dot(b)) - 1) < 1e-12)
            }
        }
    }

    @Test(arguments: ["drive", "boat", "walk", "tumble"])
    func accelerationIsTheDerivativeOfTheVelocity(_ name: String) throws {
        let scenario = try #require(Self.scenario(name))
        let h = 2e-5
        var worst = 0.0
        for i in 0..<600 {
            let t = 7 + Double(i) * 0.93
            let numerical = (scenario.kinematics(at: t + h).velocity - scenario.kinematics(at: t - h).velocity) / (2 * h)
            worst = max(worst, (scenario.kinematics(at: t).acceleration - numerical).length)
        }
        #expect(worst < 1e-4, "\(name): worst acceleration difference \(worst) m/s²")
    }

    static func scenario(_ name: String) -> Scenario? {
        switch name {
        case "drive": return .drive(.init(seed: 3))
        case "boat": return .boat(.init(seed: 3))
        case "walk": return .walk(.init(seed: 3))
        case "tumble": return .tumble(.init(seed: 3))
        default: return nil
        }
    }

    @Test func pulsesChangeByTheirTotalWithExactRates() {
        let train = PulseTrain(initial: 10, pulses: [RatePulse(start: 5, total: 90, rate: 15, ramp: 2),
                                                     RatePulse(start: 20, total: -30, rate: 40, ramp: 1)])
        #expect(abs(train(4).value - 10) < 1e-12)
        #expect(abs(train(19).value - 100) < 1e-12)
        #expect(abs(train(1000).value - 70) < 1e-12)
        #expect(abs(train(10).rate - 15) < 1e-12, "the plateau holds the rate")
        let h = 1e-5
        // Off the ramps' ends, where the third derivative jumps.
        for i in 0..<300 {
            let t = 4.05 + Double(i) * 0.1
            let j = train(t)
            #expect(abs(j.rate - (train(t + h).value - train(t - h).value) / (2 * h)) < 1e-6)
            #expect(abs(j.acceleration - (train(t + h).rate - train(t - h).rate) / (2 * h)) < 1e-4)
            let r = train.rate(at: t)
            #expect(abs(r.acceleration - (train.rate(at: t + h).rate - train.rate(at: t - h).rate) / (2 * h)) < 1e-3)
        }
    }
}
