#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

extension Geodesic {
    /// The shortest path from `start` to `end`: initial bearing, final bearing, distance.
    ///
    /// Coincident points (distance 0, including the same pole at different
    /// longitudes) have no direction; both bearings are then reported as 0°
    /// (north), a stable value a display can show. (GeographicLib reports 180°
    /// there, an artefact of its internal reflection, not a direction.)
    ///
    /// At a pole, "north" is taken as the limit along the meridian of the
    /// given longitude, so a bearing from the North Pole at longitude λ is
    /// measured from the direction of meridian λ (as GeographicLib does).
    ///
    /// For exactly antipodal points every direction is a shortest path; one of
    /// them is returned.
    public func inverse(from start: GeoCoordinate, to end: GeoCoordinate) -> InverseSolution {
        let raw = solveInverse(lat1: start.latitude, lon1: start.longitude,
                               lat2: end.latitude, lon2: end.longitude)
        guard raw.distance > 0 else {
            return InverseSolution(initialBearing: 0, finalBearing: 0, distance: 0)
        }
        // Nearly antipodal points give azimuths like −8e-13°: reported as 0, not 359.999999999999.
        return InverseSolution(initialBearing: BearingRounding.normalized(raw.azi1),
                               finalBearing: BearingRounding.normalized(raw.azi2),
                               distance: raw.distance)
    }

    /// The inverse problem with GeodSolve's conventions: azimuths in [-180°, 180°], metres.
    ///
    /// Karney 2013, §4: reduce to a canonical configuration (lon12 ∈ [0°, 180°],
    /// lat1 ≤ 0, |lat2| ≤ |lat1|) by reflections and a swap, solve there, and
    /// undo the reflections on the azimuths.
    func solveInverse(lat1 inputLat1: Double, lon1: Double,
                      lat2 inputLat2: Double, lon2: Double) -> (azi1: Double, azi2: Double, distance: Double) {
        let b = polarRadius

        let (difference, differenceError) = GeodesicMath.longitudeDifference(lon1, lon2)
        var lonSign: Double = difference.sign == .minus ? -1 : 1
        let lon12 = lonSign * GeodesicMath.roundTiny(difference)
        // 180° − lon12, exact: near-antipodal points depend on it.
        let lon12Supplement = GeodesicMath.roundTiny((180 - lon12) - lonSign * differenceError)
        let lam12 = lon12 * Angle.radiansPerDegree
        var slam12: Double, clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = DegreeTrigonometry.sinCos(lon12Supplement)
            clam12 = -clam12
        } else {
            (slam12, clam12) = DegreeTrigonometry.sinCos(lon12)
        }

        var lat1 = GeodesicMath.roundTiny(inputLat1), lat2 = GeodesicMath.roundTiny(inputLat2)
        let swapped = abs(lat1) < abs(lat2)
        if swapped {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        // Reduced latitudes β (tan β = (1 − f) tan φ). At a pole cos β is "tiny", not 0,
        // so that the pole is treated as the limit of nearby points.
        var (sbet1, cbet1) = DegreeTrigonometry.sinCos(lat1)
        sbet1 *= oneMinusF
        GeodesicMath.normalize(&sbet1, &cbet1)
        cbet1 = max(Tolerance.tiny, cbet1)
        var (sbet2, cbet2) = DegreeTrigonometry.sinCos(lat2)
        sbet2 *= oneMinusF
        GeodesicMath.normalize(&sbet2, &cbet2)
        cbet2 = max(Tolerance.tiny, cbet2)
        // |β1| = |β2| must test equal below; settle it with whichever of sin and cos resolves it.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let ep2 = secondEccentricitySquared
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var distance = Double.nan

        // Meridional: from a pole, or both points on one meridian (through a pole when lon12 = 180°).
        if lat1 == -90 || slam12 == 0 {
            salp1 = slam12
            calp1 = clam12
            salp2 = 0
            calp2 = 1
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let lengths = self.lengths(eps: thirdFlattening, sig12: sig12,
                                       ssig1: ssig1, csig1: csig1, dn1: dn1,
                                       ssig2: ssig2, csig2: csig2, dn2: dn2)
            // Past its conjugate point (m12 < 0) a meridian is no longer shortest; that
            // happens only for nearly antipodal points, which fall through to the general case.
            if sig12 < 1 || lengths.m12 >= 0 {
                let isZero = sig12 < 3 * Tolerance.tiny || (sig12 < Tolerance.epsilon && lengths.s12 < 0)
                distance = isZero ? 0 : lengths.s12 * b
            }
        }

        // Equatorial: the equator is the shortest path unless the points are nearly
        // antipodal (lon12 > (1 − f)·180°).
        if distance.isNaN && sbet1 == 0 && lon12Supplement >= flattening * 180 {
            salp1 = 1
            calp1 = 0
            salp2 = 1
            calp2 = 0
            distance = equatorialRadius * lam12
        }

        if distance.isNaN {
            let guess = inverseStartingGuess(sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                                             lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = guess.salp1
            calp1 = guess.calp1
            if let shortLine = guess.shortLine {
                distance = shortLine.sig12 * b * shortLine.dnm
                salp2 = shortLine.salp2
                calp2 = shortLine.calp2
            } else {
                let found = solveStartAzimuth(sbet1: sbet1, cbet1: cbet1, dn1: dn1,
                                              sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                              salp1: &salp1, calp1: &calp1,
                                              slam12: slam12, clam12: clam12)
                let lengths = self.lengths(eps: found.eps, sig12: found.sig12,
                                           ssig1: found.ssig1, csig1: found.csig1, dn1: dn1,
                                           ssig2: found.ssig2, csig2: found.csig2, dn2: dn2)
                distance = lengths.s12 * b
                salp2 = found.salp2
                calp2 = found.calp2
            }
        }

        // Undo the canonical reflections: swapping the ends reverses the direction of
        // travel (both azimuths turn by 180°), the longitude reflection flips sin α,
        // the latitude reflection flips cos α.
        if swapped {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        let swapSign: Double = swapped ? -1 : 1
        salp1 *= swapSign * lonSign
        calp1 *= swapSign * latSign
        salp2 *= swapSign * lonSign
        calp2 *= swapSign * latSign
        return (DegreeTrigonometry.atan2Degrees(salp1, calp1), DegreeTrigonometry.atan2Degrees(salp2, calp2), distance)
    }

    /// Finds α1 with zero longitude residual: Newton's method, safeguarded by a
    /// bracket [α1a, α1b] ⊂ (0°, 180°) and bisection when a step leaves it or
    /// Newton stops converging (Karney 2013, §5). Returns the last evaluation,
    /// which matches the final (salp1, calp1).
    private func solveStartAzimuth(sbet1: Double, cbet1: Double, dn1: Double,
                                   sbet2: Double, cbet2: Double, dn2: Double,
                                   salp1: inout Double, calp1: inout Double,
                                   slam12: Double, clam12: Double) -> LongitudeResidual {
        let newtonIterations = 20
        // After Newton, bisection halves the bracket once per bit of precision, plus slack.
        let maxIterations = newtonIterations + Double.significandBitCount + 11
        let bisectionTolerance = Tolerance.epsilon * Tolerance.sqrtEpsilon
        // The residual grows with α1: α1 = 0 undershoots, α1 = 180° overshoots.
        var salp1a = Tolerance.tiny, calp1a = 1.0
        var salp1b = Tolerance.tiny, calp1b = -1.0
        var newtonConverging = false, bracketExhausted = false
        var iteration = 0
        while true {
            let trial = longitudeResidual(sbet1: sbet1, cbet1: cbet1, dn1: dn1,
                                          sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                          salp1: salp1, calp1: calp1,
                                          slam12: slam12, clam12: clam12,
                                          withDerivative: iteration < newtonIterations)
            let v = trial.residual
            // Once Newton is converging quadratically, a residual of a few ulp is final.
            let converged = !(abs(v) >= (newtonConverging ? 8 : 1) * Tolerance.epsilon)
            if converged || bracketExhausted || iteration == maxIterations { return trial }

            // Tighten the bracket (after the Newton phase, unconditionally).
            if v > 0 && (iteration > newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1
                calp1b = calp1
            } else if v < 0 && (iteration > newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1
                calp1a = calp1
            }
            iteration += 1

            if iteration <= newtonIterations && trial.derivative > 0 {
                let step = -v / trial.derivative
                if abs(step) < .pi {
                    let sstep = sin(step), cstep = cos(step)
                    let nextSalp1 = salp1 * cstep + calp1 * sstep
                    if nextSalp1 > 0 {
                        calp1 = calp1 * cstep - salp1 * sstep
                        salp1 = nextSalp1
                        GeodesicMath.normalize(&salp1, &calp1)
                        newtonConverging = abs(v) <= 16 * Tolerance.epsilon
                        continue
                    }
                }
            }
            // Newton failed or left (0°, 180°): bisect the bracket.
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            GeodesicMath.normalize(&salp1, &calp1)
            newtonConverging = false
            bracketExhausted = abs(salp1a - salp1) + (calp1a - calp1) < bisectionTolerance
                || abs(salp1 - salp1b) + (calp1 - calp1b) < bisectionTolerance
        }
    }
}
