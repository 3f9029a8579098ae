import Foundation
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct MagnetometerCalibratorTests {
    /// A long live session: memory stays at ≤ 1,000 kept samples, coverage
    /// and fit improve as the user turns through more orientations.
    @Test func liveSessionConverges() throws {
        var rng = RandomSource(seed: 31)
        let sensor = DistortedMagnetometer.random(&rng, symmetric: true, maximumHardIron: 1)
        var live = MagnetometerCalibrator(expectedMagnitude: sensor.totalIntensity)
        // Phase 1: flat turns only.
        for _ in 0..<2000 { live.add(sensor.read(rng.tiltedAttitude(maximumTilt: 10), &rng)) }
        let early = live.refit()
        #expect(early.coveragePercent < 45)
        #expect(early.fit?.grade != .good)
        // Phase 2: full tumble, a smooth random walk of attitude as a hand would make.
        var attitude = Quaternion.identity
        for _ in 0..<60_000 {
            attitude = (attitude * Quaternion(rotationVector: rng.unitVector() * 0.05)).normalized
            live.add(sensor.read(attitude, &rng))
        }
        #expect(live.keptCount <= 1000)
        #expect(live.samples.count == live.keptCount)
        #expect(live.offeredCount == 62_000)
        let late = live.refit()
        let fit = try #require(late.fit)
        #expect(fit.model == .full)
        #expect(late.coveragePercent > 90)
        #expect(fit.grade == .good)
        #expect((fit.offset - sensor.hardIron).length / sensor.totalIntensity < 0.01)
        #expect(abs((late.magnitudeRatio ?? 0) - cbrt(sensor.distortion.determinant)) < 0.01)
    }

    /// A device lying still offers thousands of near-identical samples; few are kept.
    @Test func stillDeviceKeepsFewSamples() {
        var rng = RandomSource(seed: 32)
        let sensor = DistortedMagnetometer(distortion: .identity, hardIron: Vector3(4, 5, 6), noise: 0.5)
        var live = MagnetometerCalibrator()
        let attitude = rng.attitude()
        var kept = 0
        for _ in 0..<5000 where live.add(sensor.read(attitude, &rng)) { kept += 1 }
        #expect(kept == live.keptCount)
        #expect(live.keptCount <= 10)
        #expect(live.progress.coveragePercent <= 2)
    }

    @Test func ignoresNonFiniteReadings() {
        var live = MagnetometerCalibrator()
        let nanKept = live.add(Vector3(.nan, 0, 0))
        #expect(!nanKept)
        #expect(live.offeredCount == 0)
        let kept = live.add(Vector3(10, 20, 30))
        #expect(kept)
    }

    @Test func reportsRejectionUntilEnoughCoverage() {
        var live = MagnetometerCalibrator()
        for k in 0..<200 {
            let t = Double(k) * 0.1
            live.add(Vector3(40 * cos(t), 40 * sin(t), -20))
        }
        let p = live.refit()
        #expect(p.fit == nil)
        #expect(p.rejection != nil)
        #expect(p.suggestedDirection != nil)
    }
}
