import Foundation
import Testing
@testable import LodestoneSteering

/// The series against direct numerical integration of the integrals they expand.
///
/// On WGS84 (ε ≤ 0.0017) a slip in a coefficient can hide below the other
/// errors of a geodesic comparison. These tests use an exaggerated ε (and n)
/// and check that the series agree with quadrature and that the error shrinks
/// at the rate the truncation order promises when ε halves (observed: about
/// 130 for the distance series, whose residual is O(ε⁷), and 62 for the
/// longitude series, O(ε⁶)). They catch a wrong sign, power or digit in the
/// leading terms; the sixth-order coefficients are too small to pin down this
/// way and were checked by symbolic expansion when written.
@Suite struct GeodesicSeriesTests {
    static let sigmas: [Double] = [0.3, 1.2, 2.5, 4.0, -0.7]

    /// ∫₀^σ g, composite 5-point Gauss–Legendre (exact for smooth g well below 1e-15 here).
    static func integrate(_ g: (Double) -> Double, to sigma: Double, panels: Int = 64) -> Double {
        let nodes = [0, -0.538_469_310_105_683_1, 0.538_469_310_105_683_1, -0.906_179_845_938_664_0, 0.906_179_845_938_664_0]
        let weights = [0.568_888_888_888_888_9, 0.478_628_670_499_366_5, 0.478_628_670_499_366_5,
                       0.236_926_885_056_189_1, 0.236_926_885_056_189_1]
        let h = sigma / Double(panels)
        var sum = 0.0
        for panel in 0..<panels {
            let mid = (Double(panel) + 0.5) * h
            for (x, w) in zip(nodes, weights) { sum += w * g(mid + x * h / 2) }
        }
        return sum * h / 2
    }

    static func k2(_ eps: Double) -> Double { 4 * eps / ((1 - eps) * (1 - eps)) }

    static func maxError(eps: Double, integrand: (Double) -> Double, series: (Double) -> Double) -> Double {
        sigmas.map { abs(integrate(integrand, to: $0) - series($0)) }.max()!
    }

    static func distanceError(_ eps: Double) -> Double {
        let k2 = k2(eps)
        let a1 = 1 + DistanceSeries.a1Minus1(eps), c1 = DistanceSeries.c1(eps)
        return maxError(eps: eps, integrand: { (1 + k2 * sin($0) * sin($0)).squareRoot() },
                        series: { a1 * ($0 + c1.value(sin: sin($0), cos: cos($0))) })
    }

    static func reducedLengthError(_ eps: Double) -> Double {
        let k2 = k2(eps)
        let a2 = 1 + DistanceSeries.a2Minus1(eps), c2 = DistanceSeries.c2(eps)
        return maxError(eps: eps, integrand: { 1 / (1 + k2 * sin($0) * sin($0)).squareRoot() },
                        series: { a2 * ($0 + c2.value(sin: sin($0), cos: cos($0))) })
    }

    /// |σ − σ(τ(σ))|: the reverted series must undo τ = σ + Σ C1_l sin 2lσ.
    static func reversionError(_ eps: Double) -> Double {
        let c1 = DistanceSeries.c1(eps), c1p = DistanceSeries.c1Reverted(eps)
        return sigmas.map { sigma in
            let tau = sigma + c1.value(sin: sin(sigma), cos: cos(sigma))
            return abs(tau + c1p.value(sin: sin(tau), cos: cos(tau)) - sigma)
        }.max()!
    }

    /// I3 with n = ε (both small parameters scaled together).
    static func longitudeError(_ eps: Double) -> Double {
        let n = eps, f = 2 * n / (1 + n), k2 = k2(eps)
        let series = LongitudeSeries(thirdFlattening: n)
        let a3 = series.a3(eps), c3 = series.c3(eps)
        return maxError(eps: eps, integrand: { (2 - f) / (1 + (1 - f) * (1 + k2 * sin($0) * sin($0)).squareRoot()) },
                        series: { a3 * ($0 + c3.value(sin: sin($0), cos: cos($0))) })
    }

    @Test func distanceSeriesMatchesQuadrature() {
        #expect(Self.distanceError(0.02) < 1e-12)
        #expect(Self.distanceError(0.1) / Self.distanceError(0.05) > 90)
    }

    @Test func reducedLengthSeriesMatchesQuadrature() {
        #expect(Self.reducedLengthError(0.02) < 1e-12)
        #expect(Self.reducedLengthError(0.1) / Self.reducedLengthError(0.05) > 90)
    }

    @Test func revertedSeriesUndoesDistanceSeries() {
        #expect(Self.reversionError(0.02) < 1e-11)
        #expect(Self.reversionError(0.1) / Self.reversionError(0.05) > 90)
    }

    @Test func longitudeSeriesMatchesQuadrature() {
        #expect(Self.longitudeError(0.02) < 1e-10)
        #expect(Self.longitudeError(0.1) / Self.longitudeError(0.05) > 45)
    }
}
