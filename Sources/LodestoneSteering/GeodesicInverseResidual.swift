#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One trial of the inverse solver: follow the geodesic that leaves point 1
/// with azimuth α1 up to the latitude of point 2, and measure how far its
/// longitude misses.
struct LongitudeResidual {
    /// λ12(α1) − λ12(target), radians; zero at the solution.
    var residual: Double
    /// ∂residual/∂α1 (NaN when not requested).
    var derivative: Double
    var salp2: Double, calp2: Double
    var sig12: Double
    var ssig1: Double, csig1: Double
    var ssig2: Double, csig2: Double
    var eps: Double
}

extension Geodesic {
    /// The residual for start azimuth (salp1, calp1) in the canonical configuration
    /// (Karney 2013, §4, eqs. 44–47).
    ///
    /// The target longitude difference comes in as its sine and cosine so that
    /// values near 180° keep full precision.
    @inline(__always)
    func longitudeResidual(sbet1: Double, cbet1: Double, dn1: Double,
                           sbet2: Double, cbet2: Double, dn2: Double,
                           salp1: Double, calp1 startCalp1: Double,
                           slam12: Double, clam12: Double,
                           withDerivative: Bool) -> LongitudeResidual {
        let ep2 = secondEccentricitySquared
        var calp1 = startCalp1
        // Due east from the equator is the equator itself, a degenerate family;
        // nudge onto the south-going geodesic.
        if sbet1 == 0 && calp1 == 0 { calp1 = -Tolerance.tiny }
        // α0: azimuth at the equator crossing (Clairaut: cos β sin α is constant).
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)

        // σ and ω measured from the equator crossing (tan σ = tan β / cos α, tan ω = sin α0 tan σ).
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        GeodesicMath.normalize(&ssig1, &csig1)

        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        // cos α2 from Clairaut, using whichever of cos β or sin β differences is accurate.
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let betaTerm = cbet1 < -sbet1
                ? (cbet2 - cbet1) * (cbet1 + cbet2)
                : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + betaTerm).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        GeodesicMath.normalize(&ssig2, &csig2)

        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        // ω12 − λ12(target), formed as one angle difference.
        let eta = atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)

        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = longitudeSeries.c3(eps)
        let b312 = c3.value(sin: ssig2, cos: csig2) - c3.value(sin: ssig1, cos: csig1)
        let domg12 = -flattening * longitudeSeries.a3(eps) * salp0 * (sig12 + b312)

        var derivative = Double.nan
        if withDerivative {
            if calp2 == 0 {
                derivative = -2 * oneMinusF * dn1 / sbet1  // eq. 47
            } else {
                let m12 = lengths(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                  ssig2: ssig2, csig2: csig2, dn2: dn2).m12
                derivative = m12 * oneMinusF / (calp2 * cbet2)  // eq. 46
            }
        }
        return LongitudeResidual(residual: eta + domg12, derivative: derivative,
                                 salp2: salp2, calp2: calp2, sig12: sig12,
                                 ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps)
    }
}
