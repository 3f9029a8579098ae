import Foundation
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct CalibrationFitterTests {
    let fitter = CalibrationFitter(settings: .magnetometer)

    /// Offset within 1 % of |B| and `SᵀS` within 2 % of `(DDᵀ)⁻¹` (the part
    /// of the soft iron a fit can identify), for 40 random distortions with a
    /// rotation part, hard iron up to 2×|B|, 0.5 µT noise, full-sphere tumble.
    @Test func recoversKnownDistortionWithExpectedMagnitude() throws {
        var rng = RandomSource(seed: 5)
        for trial in 0..<40 {
            let sensor = DistortedMagnetometer.random(&rng, symmetric: false)
            let samples = (0..<800).map { _ in sensor.read(rng.attitude(), &rng) }
            let fit = try fitter.fit(samples, expectedMagnitude: sensor.totalIntensity)
            #expect(fit.model == .full, "trial \(trial)")
            let offsetError = (fit.offset - sensor.hardIron).length / sensor.totalIntensity
            #expect(offsetError < 0.01, "trial \(trial): offset off by \(offsetError * 100) % of |B|")
            let identifiable = try #require((sensor.distortion * sensor.distortion.transposed).inverse)
            let matrixError = relativeDifference(fit.matrix.transposed * fit.matrix, identifiable)
            #expect(matrixError < 0.02, "trial \(trial): SᵀS off by \(matrixError * 100) %")
            // Corrected magnitude is F: fit error is the noise (0.5 µT ≈ 1 % of 50 µT), not the distortion.
            #expect(fit.fitErrorPercent < 1.5)
            #expect(abs(fit.correctedMagnitude - 50) < 1e-9)
        }
    }

    /// Without an expected magnitude the matrix has determinant 1 and the
    /// corrected field keeps the fitted magnitude, in µT.
    @Test func keepsFittedMagnitudeWithoutExpectedOne() throws {
        var rng = RandomSource(seed: 6)
        let sensor = DistortedMagnetometer.random(&rng, symmetric: false)
        let samples = (0..<1000).map { _ in sensor.read(rng.attitude(), &rng) }
        let fit = try fitter.fit(samples)
        #expect(abs(fit.matrix.determinant - 1) < 1e-9)
        #expect(fit.expectedMagnitude == nil)
        // The fitted magnitude is |B| times the distortion's volume scale det(D)^(1/3).
        let expected = 50 * cbrt(sensor.distortion.determinant)
        #expect(abs(fit.fittedMagnitude - expected) / expected < 0.005)
        let mean = samples.map { fit.apply($0).length }.reduce(0, +) / Double(samples.count)
        #expect(abs(mean - fit.fittedMagnitude) / fit.fittedMagnitude < 0.002)
        // Shape still recovered up to scale: compare with det-normalised (DDᵀ)⁻¹.
        let identifiable = try #require((sensor.distortion * sensor.distortion.transposed).inverse)
        let normalised = identifiable * (1 / pow(identifiable.determinant, 1.0 / 3))
        #expect(relativeDifference(fit.matrix.transposed * fit.matrix, normalised) < 0.02)
    }

    /// The worst case of the issue: hard iron exactly 2×|B|, scale ±30 %, cross ±15 %.
    @Test func extremeDistortion() throws {
        var rng = RandomSource(seed: 7)
        var sensor = DistortedMagnetometer(distortion: Matrix3(1.3, 0.15, -0.15, 0.15, 0.7, 0.15, -0.15, 0.15, 1.0),
                                           hardIron: Vector3(60, -50, 56.57))
        sensor.hardIron = sensor.hardIron.normalized * 100
        let samples = (0..<1000).map { _ in sensor.read(rng.attitude(), &rng) }
        let fit = try fitter.fit(samples, expectedMagnitude: 50)
        #expect((fit.offset - sensor.hardIron).length < 0.5)
        #expect(relativeDifference(fit.matrix, try #require(sensor.distortion.inverse)) < 0.02)
    }

    /// Heading of body +y from the simple tilt-compensated formula, over 200
    /// holds tilted up to 45°, each the mean of 50 noisy samples: RMS < 0.5°
    /// after a calibration from a separate tumble, and far worse before.
    @Test func headingAfterCalibration() throws {
        var rng = RandomSource(seed: 8)
        var worst = 0.0
        for trial in 0..<10 {
            let sensor = DistortedMagnetometer.random(&rng, symmetric: true)
            let tumble = (0..<1000).map { _ in sensor.read(rng.attitude(), &rng) }
            let fit = try fitter.fit(tumble, expectedMagnitude: sensor.totalIntensity)
            var sumSq = 0.0, rawSumSq = 0.0
            let holds = 200
            for _ in 0..<holds {
                let attitude = rng.tiltedAttitude(maximumTilt: 45)
                var raw = Vector3.zero
                for _ in 0..<50 { raw += sensor.read(attitude, &rng) / 50 }
                let gravity = attitude.conjugate.rotate(Vector3(0, 0, 9.81))
                let truth = trueHeading(attitude)
                let e = Angle.difference(from: truth, to: compassHeading(acceleration: gravity, field: fit.apply(raw)))
                let eRaw = Angle.difference(from: truth, to: compassHeading(acceleration: gravity, field: raw))
                sumSq += e * e
                rawSumSq += eRaw * eRaw
            }
            let rms = (sumSq / Double(holds)).squareRoot()
            worst = max(worst, rms)
            #expect(rms < 0.5, "trial \(trial): heading RMS \(rms)°")
            if sensor.hardIron.length > 10 {
                #expect((rawSumSq / Double(holds)).squareRoot() > 5, "the distortion should matter uncalibrated")
            }
        }
        #expect(worst > 0, "sanity")
    }

    @Test func robustToSpikes() throws {
        var rng = RandomSource(seed: 9)
        let sensor = DistortedMagnetometer.random(&rng, symmetric: false)
        var samples = (0..<1000).map { _ in sensor.read(rng.attitude(), &rng) }
        // 1 % of samples hit by 40 µT glitches.
        for i in stride(from: 0, to: samples.count, by: 100) { samples[i] += rng.unitVector() * 40 }
        let fit = try fitter.fit(samples, expectedMagnitude: 50)
        #expect((fit.offset - sensor.hardIron).length / 50 < 0.01)
    }
}
