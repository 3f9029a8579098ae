import Foundation
import Testing
@testable import LodestoneCore
import LodestoneSimulation

/// Steps that span lost samples get the trapezoid rule over the missing periods.
@Suite struct LostSampleBridgeTests {
    /// A hand's sway, 30 °/s at 2 Hz about x, read at 100 Hz with one sample in
    /// five lost at random: the angle summed with the bridge stays within a
    /// third of the error of carrying each reading over its whole step.
    @Test func lostSamplesOfASwayAreBridged() {
        var bridge = LostSampleBridge()
        var random = RandomSource(seed: 5)
        let amplitude = 30 * Angle.radiansPerDegree, frequency = 2.0, period = 0.01
        func rate(_ t: Double) -> Double { amplitude * sin(2 * Double.pi * frequency * t) }
        func angle(_ t: Double) -> Double { amplitude * (1 - cos(2 * Double.pi * frequency * t)) / (2 * Double.pi * frequency) }
        var plain = 0.0, bridged = 0.0, last = 0.0, worstPlain = 0.0, worstBridged = 0.0, lost = 0
        for k in 1...6_000 {
            let t = Double(k) * period
            guard k < 10 || random.uniform() >= 0.2 else { lost += 1; continue }
            let dt = t - last, w = Vector3(rate(t), 0, 0)
            plain += w.x * dt
            bridged += w.x * dt + (bridge.correction(rawRate: w, dt: dt)?.rotation.x ?? 0)
            last = t
            worstPlain = max(worstPlain, abs(plain - angle(t)))
            worstBridged = max(worstBridged, abs(bridged - angle(t)))
        }
        print("measured lost samples (\(lost) of 6000): worst angle error \(worstPlain * Angle.degreesPerRadian)° carried, \(worstBridged * Angle.degreesPerRadian)° bridged")
        #expect(abs(bridge.period - period) < 1e-4, "learned period \(bridge.period) s")
        #expect(worstBridged < worstPlain / 3, "bridged \(worstBridged) rad against \(worstPlain) rad")
    }

    /// Steps of the usual length, even jittered by ±40 %, are left as they are.
    @Test func regularAndJitteredStepsAreLeftAlone() {
        var bridge = LostSampleBridge()
        var random = RandomSource(seed: 6)
        for k in 0..<1_000 {
            let dt = 0.01 * (1 + 0.8 * (random.uniform() - 0.5))
            #expect(bridge.correction(rawRate: Vector3(Double(k), 1, 2), dt: dt) == nil)
        }
    }
}
