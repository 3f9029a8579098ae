import Foundation
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct SphereCoverageTests {
    /// Every region has area 4π/100: on the unit sphere area = Δz × Δlongitude.
    @Test func regionsHaveEqualArea() {
        var total = 0.0
        for region in 0..<EqualAreaSphere.regionCount {
            let b = EqualAreaSphere.bounds(of: region)
            let area = (b.zRange.upperBound - b.zRange.lowerBound) * (b.longitudeRange.upperBound - b.longitudeRange.lowerBound)
            #expect(abs(area - 4 * Double.pi / 100) < 1e-12, "region \(region)")
            total += area
        }
        #expect(abs(total - 4 * Double.pi) < 1e-10)
        #expect(EqualAreaSphere.bandCounts.reduce(0, +) == 100)
    }

    @Test func regionLookupMatchesBounds() {
        var rng = RandomSource(seed: 21)
        for _ in 0..<5000 {
            let v = rng.unitVector() * rng.uniform(0.1...100)
            let region = EqualAreaSphere.region(of: v)!
            let b = EqualAreaSphere.bounds(of: region)
            let u = v.normalized
            var lon = atan2(u.y, u.x)
            if lon < 0 { lon += 2 * Double.pi }
            #expect(b.zRange.contains(u.z))
            #expect(b.longitudeRange.contains(lon))
        }
        for region in 0..<100 { #expect(EqualAreaSphere.region(of: EqualAreaSphere.centre(of: region)) == region) }
        #expect(EqualAreaSphere.region(of: .zero) == nil)
    }

    /// Uniform directions fill each region in proportion (equal area ⇒ equal counts).
    @Test func uniformDirectionsFillRegionsEvenly() {
        var rng = RandomSource(seed: 22)
        let c = SphereCoverage(directions: (0..<100_000).map { _ in rng.unitVector() })
        #expect(c.coveragePercent == 100)
        #expect(c.gaps.isEmpty)
        #expect(c.largestGapDirection == nil)
        // 1000 expected per region, binomial σ ≈ 31.
        #expect(c.counts.allSatisfy { abs($0 - 1000) < 160 })
    }

    @Test func hemisphereIsHalfAndGapPointsDown() throws {
        var rng = RandomSource(seed: 23)
        let c = SphereCoverage(directions: (0..<20000).map { _ in
            var u = rng.unitVector()
            u.z = abs(u.z)
            return u
        })
        #expect(c.coveragePercent == 50)
        let gap = try #require(c.largestGapDirection)
        #expect(gap.z < -0.5)
    }
}
