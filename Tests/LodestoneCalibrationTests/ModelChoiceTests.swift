import Foundation
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

/// Thin coverage gets a simpler model or a clear refusal, never a wrong full fit.
@Suite struct ModelChoiceTests {
    let fitter = CalibrationFitter(settings: .magnetometer)

    /// Mild distortion (hard iron plus 3 % gain mismatch), turned about the
    /// vertical with wobbles up to ±20°: the sphere model, offset right to 2 µT.
    @Test func wobblyTurnAboutOneAxisFallsBackToSphere() throws {
        var rng = RandomSource(seed: 11)
        let sensor = DistortedMagnetometer(distortion: Matrix3(diagonal: Vector3(1.03, 0.98, 1.0)),
                                           hardIron: Vector3(12, -30, 20))
        let samples = (0..<3000).map { _ in sensor.read(rng.tiltedAttitude(maximumTilt: 20), &rng) }
        let fit = try fitter.fit(samples)
        #expect(fit.model == .sphere)
        #expect(fit.conditioning.full < 0.02)
        #expect((fit.offset - sensor.hardIron).length < 2)
        #expect(fit.grade != .good)
    }

    /// Tilts up to ±60°: enough for per-axis scales or more, not a sphere. The
    /// spread sits near the richer models' threshold, so the choice must not
    /// depend on the draw: a sphere that fits far worse is never the answer.
    @Test(arguments: 1...12)
    func widerTiltsAllowRicherModel(seed: Int) throws {
        var rng = RandomSource(seed: UInt64(seed))
        let sensor = DistortedMagnetometer(distortion: Matrix3(diagonal: Vector3(1.2, 0.85, 1.0)),
                                           hardIron: Vector3(-20, 5, 30))
        let samples = (0..<4000).map { _ in sensor.read(rng.tiltedAttitude(maximumTilt: 60), &rng) }
        let fit = try fitter.fit(samples)
        #expect(fit.model >= .diagonal)
        #expect((fit.offset - sensor.hardIron).length < 1)
    }

    /// A flat turn about one axis only is a planar ring: the offset along the
    /// axis is free for every model, so the fit is refused with the reason.
    @Test func planarRingIsRefused() {
        var rng = RandomSource(seed: 13)
        let sensor = DistortedMagnetometer(distortion: .identity, hardIron: Vector3(5, 5, 5), noise: 0.3)
        let samples = (0..<2000).map { _ in
            sensor.read(Quaternion(axis: .unitZ, angle: rng.uniform(0...(2 * Double.pi))), &rng)
        }
        #expect(throws: CalibrationRejection.self) { try fitter.fit(samples) }
        do {
            _ = try fitter.fit(samples)
        } catch {
            guard case .insufficientCoverage = error else {
                Issue.record("expected insufficientCoverage, got \(error)")
                return
            }
            #expect(error.description.contains("tilt"))
        }
    }

    @Test func tooFewSamples() {
        var rng = RandomSource(seed: 14)
        let sensor = DistortedMagnetometer(distortion: .identity, hardIron: .zero)
        let samples = (0..<5).map { _ in sensor.read(rng.attitude(), &rng) }
        #expect(throws: CalibrationRejection.tooFewSamples(count: 5, needed: 12)) { try fitter.fit(samples) }
    }

    /// Few samples but all round: only the simpler models have enough samples.
    @Test func sampleCountLimitsModel() throws {
        var rng = RandomSource(seed: 15)
        let sensor = DistortedMagnetometer(distortion: .identity, hardIron: Vector3(10, 0, 0), noise: 0.2)
        let samples = (0..<20).map { _ in sensor.read(rng.attitude(), &rng) }
        let fit = try fitter.fit(samples)
        #expect(fit.model == .sphere)
    }

    @Test func nonFiniteSampleIsNamed() {
        var samples = (0..<50).map { Vector3(cos(Double($0)), sin(Double($0)), 0.3) * 40 }
        samples[17] = Vector3(1, .nan, 0)
        #expect(throws: CalibrationRejection.nonFiniteSample(index: 17)) { try fitter.fit(samples) }
    }

    /// Readings in gauss instead of µT: fitted magnitude 0.5 is refused.
    @Test func implausibleMagnitudeIsRefused() {
        var rng = RandomSource(seed: 16)
        let sensor = DistortedMagnetometer(distortion: .identity, hardIron: Vector3(3, 1, 2))
        let gauss = (0..<500).map { _ in sensor.read(rng.attitude(), &rng) * 0.01 }
        do {
            _ = try fitter.fit(gauss)
            Issue.record("fit in gauss should be refused")
        } catch {
            guard case let .implausibleMagnitude(value, range, _) = error else {
                Issue.record("expected implausibleMagnitude, got \(error)")
                return
            }
            #expect(abs(value - 0.5) < 0.01)
            #expect(range == 10...100)
        }
    }

    @Test func invalidExpectedMagnitudeIsRefused() {
        let samples = (0..<50).map { Vector3(cos(Double($0)), sin(Double($0)), 0.3) * 40 }
        #expect(throws: CalibrationRejection.invalidExpectedMagnitude(value: 500, range: 10...100, unit: "µT")) {
            try fitter.fit(samples, expectedMagnitude: 500)
        }
    }

    /// Random points in a box are no ellipsoid: refused, not fitted.
    @Test func noiseIsRefused() {
        var rng = RandomSource(seed: 17)
        let samples = (0..<2000).map { _ in Vector3(rng.uniform(-50...50), rng.uniform(-50...50), rng.uniform(-50...50)) }
        #expect(throws: CalibrationRejection.self) { try fitter.fit(samples) }
    }

    /// Two calibrations' worth of data (a magnet attached halfway) cannot be one ellipsoid.
    @Test func changedFieldIsRefusedOrPoor() {
        var rng = RandomSource(seed: 18)
        let before = DistortedMagnetometer(distortion: .identity, hardIron: .zero)
        let after = DistortedMagnetometer(distortion: .identity, hardIron: Vector3(0, 0, 40))
        let samples = (0..<1000).map { _ in before.read(rng.attitude(), &rng) }
            + (0..<1000).map { _ in after.read(rng.attitude(), &rng) }
        do {
            let fit = try fitter.fit(samples)
            Issue.record("mixed data should be refused, got \(fit.model) fit error \(fit.fitErrorPercent) %")
        } catch {
            #expect(!error.description.isEmpty)
        }
    }
}

@Suite struct RejectionMessageTests {
    @Test func numbersInMessages() {
        #expect(formatNumber(0.00031) == "0.00031")
        #expect(formatNumber(0.5) == "0.5")
        #expect(formatNumber(12.345) == "12.3")
        #expect(formatNumber(662.4) == "662")
        #expect(formatNumber(0) == "0")
        #expect(formatNumber(1e-300) == "0")
        #expect(CalibrationRejection.insufficientCoverage(conditioning: 0.00031).description.contains("0.00031"))
    }
}
