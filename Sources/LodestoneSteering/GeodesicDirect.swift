#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

extension Geodesic {
    /// Where the geodesic leaving `start` with azimuth `bearing` (degrees from true
    /// north) ends after `distance` metres (negative goes backwards).
    ///
    /// Used to simulate a moving receiver and to build test pairs with a known
    /// answer. The returned longitude is in [-180, 180).
    public func direct(from start: GeoCoordinate, bearing: Double,
                       distance: Double) throws(SteeringInputError) -> DirectSolution {
        guard bearing.isFinite else { throw .notFinite(name: "bearing", value: bearing) }
        guard distance.isFinite else { throw .notFinite(name: "distance", value: distance) }
        let raw = solveDirect(lat1: start.latitude, lon1: start.longitude, azi1: bearing, s12: distance)
        return DirectSolution(destination: GeoCoordinate(unchecked: raw.lat2, raw.lon2),
                              finalBearing: BearingRounding.normalized(raw.azi2))
    }

    /// The direct problem (Karney 2013, §3): distance → arc length on the
    /// auxiliary sphere via the reverted series, then the spherical triangle,
    /// then back to latitude and (corrected) longitude. Azimuth in [-180°, 180°].
    func solveDirect(lat1: Double, lon1: Double, azi1: Double, s12: Double) -> (lat2: Double, lon2: Double, azi2: Double) {
        let (salp1, calp1) = DegreeTrigonometry.sinCos(GeodesicMath.roundTiny(Angle.normalized180(azi1)))
        var (sbet1, cbet1) = DegreeTrigonometry.sinCos(GeodesicMath.roundTiny(lat1))
        sbet1 *= oneMinusF
        GeodesicMath.normalize(&sbet1, &cbet1)
        cbet1 = max(Tolerance.tiny, cbet1)

        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        // σ1, ω1 from the equator crossing; due east on the equator starts at σ = 0.
        var ssig1 = sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let somg1 = salp0 * sbet1, comg1 = csig1
        GeodesicMath.normalize(&ssig1, &csig1)

        let k2 = calp0 * calp0 * secondEccentricitySquared
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let b11 = DistanceSeries.c1(eps).value(sin: ssig1, cos: csig1)
        // τ1 = σ1 + B11: the start in "distance" units of the auxiliary sphere.
        let stau1 = ssig1 * cos(b11) + csig1 * sin(b11)
        let ctau1 = csig1 * cos(b11) - ssig1 * sin(b11)
        let tau12 = s12 / (polarRadius * (1 + DistanceSeries.a1Minus1(eps)))
        let stau12 = sin(tau12), ctau12 = cos(tau12)
        let sig12 = tau12 + b11 + DistanceSeries.c1Reverted(eps).value(
            sin: stau1 * ctau12 + ctau1 * stau12, cos: ctau1 * ctau12 - stau1 * stau12)

        let ssig12 = sin(sig12), csig12 = cos(sig12)
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // Arrived exactly at a pole: keep the meridian defined.
            cbet2 = Tolerance.tiny
            csig2 = Tolerance.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let c3 = longitudeSeries.c3(eps)
        let lam12 = omg12 - flattening * longitudeSeries.a3(eps) * salp0
            * (sig12 + c3.value(sin: ssig2, cos: csig2) - c3.value(sin: ssig1, cos: csig1))
        let lon2 = Angle.normalized180(Angle.normalized180(lon1) + lam12 * Angle.degreesPerRadian)
        let lat2 = DegreeTrigonometry.atan2Degrees(sbet2, oneMinusF * cbet2)
        return (lat2, lon2, DegreeTrigonometry.atan2Degrees(salp2, calp2))
    }
}
