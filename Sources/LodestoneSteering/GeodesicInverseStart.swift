#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The inverse solver's first guess for the start azimuth.
struct InverseStartingGuess {
    var salp1: Double, calp1: Double
    /// Set when the guess is already the solution (short lines): the arc on the
    /// auxiliary sphere, with the end azimuth and the mean `dn` to scale it by.
    var shortLine: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
}

extension Geodesic {
    /// A start azimuth close enough for Newton's method to converge quickly
    /// (Karney 2013, §5).
    ///
    /// Most pairs use the great circle on the auxiliary sphere, with the
    /// longitude scaled by the mean `dn` for short lines, where that is already
    /// exact to round-off. Nearly antipodal pairs, where a small change of end
    /// point swings the azimuth through large angles, use the astroid
    /// approximation instead (eqs. 53–57).
    @inline(__always)
    func inverseStartingGuess(sbet1: Double, cbet1: Double,
                              sbet2: Double, cbet2: Double,
                              lam12: Double, slam12: Double, clam12: Double) -> InverseStartingGuess {
        let f = flattening, n = thirdFlattening, ep2 = secondEccentricitySquared
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1   // sin(β2 − β1)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1   // cos(β2 − β1)
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β2 + β1)

        let isShort = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12 = slam12, comg12 = clam12
        var dnm = Double.nan
        if isShort {
            // sin² of the mean reduced latitude, then the sphere scaled to it.
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (oneMinusF * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }

        // Great-circle azimuth on the auxiliary sphere, in the form that avoids cancellation.
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        var shortLine: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
        if isShort && ssig12 < shortLineTolerance {
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            GeodesicMath.normalize(&salp2, &calp2)
            shortLine = (atan2(ssig12, csig12), salp2, calp2, dnm)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // Not nearly antipodal: the spherical guess converges.
        } else {
            // Nearly antipodal. Scale to the astroid's coordinates: x measures how far the
            // longitude falls short of 180°, y how far the latitudes are from opposite.
            let lam12x = atan2(-slam12, -clam12)  // λ12 − π
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * longitudeSeries.a3(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -200 * Tolerance.epsilon && x > -1 - 1000 * Tolerance.sqrtEpsilon {
                // On (or next to) the cut where y = 0: the astroid degenerates and
                // sin α1 = −x directly (eq. 56 limit).
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = Astroid.positiveRoot(x: x, y: y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                // The great-circle formula again, with the astroid's longitude.
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // Newton works on α1 in (0°, 180°); a guess outside it restarts from due east.
        if !(salp1 <= 0) {
            GeodesicMath.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return InverseStartingGuess(salp1: salp1, calp1: calp1, shortLine: shortLine)
    }
}
