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

    /// Speed reports every `interval` s, held between them, from `speed(t)`;
    /// returns the acceleration along the track at each sample.
    func alongTrack(seconds: Double, interval: Double = 1, speed: (Double) -> Double) -> [(time: Double, value: Double)] {
        var vehicle = VehicleAcceleration()
        var held = speed(0), nextReport = interval
        var out: [(Double, Double)] = []
        for i in 1...Int((seconds / dt).rounded()) {
            let t = Double(i) * dt
            if t >= nextReport - 1e-9 {
                held = speed(t)
                nextReport += interval
            }
            let a = vehicle.update(speed: held, course: 0, rate: .zero, forward: north, rotation: .identity, dt: dt)
            out.append((t, a?.y ?? .nan))
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
}
