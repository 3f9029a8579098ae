import Foundation
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct EllipsoidFitTests {
    /// On partial coverage (tilts up to ±60°) the algebraic estimate is biased;
    /// the refinement on field-unit residuals removes most of the bias.
    @Test func refinementBeatsAlgebraicStartOnPartialCoverage() throws {
        var rng = RandomSource(seed: 71)
        var algebraicError = 0.0, refinedError = 0.0
        let trials = 10
        for _ in 0..<trials {
            let sensor = DistortedMagnetometer.random(&rng, symmetric: true)
            let samples = (0..<2000).map { _ in sensor.read(rng.tiltedAttitude(maximumTilt: 60), &rng) }
            let fit = try #require(EllipsoidFit(points: samples))
            let algebraic = try #require(fit.algebraicEstimate(.full))
            let refined = try #require(fit.fit(.full)).ellipsoid
            algebraicError += (algebraic.centre - sensor.hardIron).length / Double(trials)
            refinedError += (refined.centre - sensor.hardIron).length / Double(trials)
            // The refinement minimises RMS(R·(|W d| − 1)): never worse than its start.
            func rms(_ e: Ellipsoid) -> Double {
                let sum = samples.reduce(0.0) { $0 + pow(e.meanRadius * e.residual($1), 2) }
                return (sum / Double(samples.count)).squareRoot()
            }
            #expect(rms(refined) <= rms(algebraic) + 1e-9)
        }
        #expect(refinedError < 0.6 * algebraicError, "refined \(refinedError) µT vs algebraic \(algebraicError) µT")
        #expect(refinedError < 0.3)
    }

    @Test func exactSphereAndDiagonal() throws {
        // Noise-free points on known surfaces are fitted to rounding.
        var rng = RandomSource(seed: 72)
        let centre = Vector3(3, -40, 12)
        let axes = Vector3(30, 45, 52)
        let points = (0..<200).map { _ -> Vector3 in
            let u = rng.unitVector()
            return centre + Vector3(u.x * axes.x, u.y * axes.y, u.z * axes.z)
        }
        let fit = try #require(EllipsoidFit(points: points))
        let diagonal = try #require(fit.fit(.diagonal)).ellipsoid
        #expect((diagonal.centre - centre).length < 1e-8)
        #expect((diagonal.radii - Vector3(30, 45, 52)).length < 1e-8)
        let full = try #require(fit.fit(.full)).ellipsoid
        #expect((full.centre - centre).length < 1e-8)
        let sphereFit = try #require(EllipsoidFit(points: points.map { centre + ($0 - centre).normalized * 44 }))
        let sphere = try #require(sphereFit.fit(.sphere)).ellipsoid
        #expect(abs(sphere.meanRadius - 44) < 1e-9)
    }

    @Test func degenerateInputs() {
        #expect(EllipsoidFit(points: [Vector3](repeating: Vector3(1, 2, 3), count: 10)) == nil)
        #expect(EllipsoidFit(points: [.unitX, .unitY, .unitZ]) == nil)
        #expect(EllipsoidFit(points: [.unitX, .unitY, .unitZ, Vector3(.infinity, 0, 0)]) == nil)
    }
}
