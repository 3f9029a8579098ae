/// Distance and reduced length along a geodesic, from its arc on the auxiliary sphere.
extension Geodesic {
    /// `s12` and `m12` in units of the polar radius b, for the arc σ1…σ2 of a
    /// geodesic with parameter `eps` (Karney 2013, eqs. 7, 38).
    ///
    /// The reduced length m12 says how fast the end point moves sideways when
    /// the start azimuth changes; the inverse solver uses it both as Newton's
    /// derivative and to tell whether a meridian is still the shortest path.
    /// `dn1`, `dn2` are √(1 + k² sin²σ) at the ends.
    @inline(__always)
    func lengths(eps: Double, sig12: Double,
                 ssig1: Double, csig1: Double, dn1: Double,
                 ssig2: Double, csig2: Double, dn2: Double) -> (s12: Double, m12: Double) {
        let a1Minus1 = DistanceSeries.a1Minus1(eps)
        let a2Minus1 = DistanceSeries.a2Minus1(eps)
        let a1 = 1 + a1Minus1, a2 = 1 + a2Minus1
        let c1 = DistanceSeries.c1(eps)
        let b1 = c1.value(sin: ssig2, cos: csig2) - c1.value(sin: ssig1, cos: csig1)
        let s12 = a1 * (sig12 + b1)
        // J(σ) = I1(σ) − I2(σ); forming its coefficients first avoids cancellation.
        let j = a1 * c1 - a2 * DistanceSeries.c2(eps)
        let j12 = (a1Minus1 - a2Minus1) * sig12 + (j.value(sin: ssig2, cos: csig2) - j.value(sin: ssig1, cos: csig1))
        let m12 = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12, m12)
    }
}
