#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Shortest paths (geodesics) on an oblate ellipsoid of revolution.
///
/// A spherical great-circle formula errs by up to 0.5 % in distance and tenths
/// of a degree in bearing, more than a good compass; Vincenty's iteration fails
/// to converge near antipodal points. This follows Karney's method instead
/// (C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55):
/// series to order 6 in the third flattening n, Newton's method on the
/// auxiliary sphere with an astroid starting guess for nearly antipodal points,
/// and closed-form meridional and equatorial cases. It agrees with
/// GeographicLib's `GeodSolve` to roughly round-off.
///
/// Only `wgs84` is public: GNSS positions are WGS84, and the series (no extra
/// Newton step in the direct problem) are sized for |f| ≤ 0.01.
public struct Geodesic: Sendable {
    /// The ellipsoid used by GNSS (NIMA TR8350.2): a = 6 378 137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Equatorial radius a, metres.
    public let equatorialRadius: Double
    /// Flattening f = (a − b)/a.
    public let flattening: Double

    let polarRadius: Double            // b
    let oneMinusF: Double              // 1 − f = b/a
    let secondEccentricitySquared: Double  // e′² = (a² − b²)/b²
    let thirdFlattening: Double        // n = (a − b)/(a + b)
    let longitudeSeries: LongitudeSeries
    /// Below this arc (radians) the short-line starting guess is already the answer.
    let shortLineTolerance: Double

    /// An oblate ellipsoid, 0 ≤ f ≤ 0.01 (f = 0 is a sphere; used by tests).
    init(equatorialRadius a: Double, flattening f: Double) {
        precondition(a > 0 && f >= 0 && f <= 0.01, "ellipsoid outside the supported range")
        equatorialRadius = a
        flattening = f
        oneMinusF = 1 - f
        polarRadius = a * (1 - f)
        secondEccentricitySquared = f * (2 - f) / ((1 - f) * (1 - f))
        thirdFlattening = f / (2 - f)
        longitudeSeries = LongitudeSeries(thirdFlattening: f / (2 - f))
        // Karney §5: the spherical short-line solution is within round-off when
        // σ12 is below ~ sqrt(ε_machine)/sqrt(f) (the extra 0.1 is a safety factor).
        shortLineTolerance = 0.1 * Tolerance.sqrtEpsilon / (max(0.001, f) * min(1, 1 - f / 2) / 2).squareRoot()
    }

    /// The inverse problem: where to head from `start` to reach `end`, and how far it is.
    public struct InverseSolution: Sendable, Equatable {
        /// Azimuth at `start`, degrees clockwise from true north, [0, 360).
        public var initialBearing: Double
        /// Forward azimuth on arrival at `end` (the direction of travel there), [0, 360).
        public var finalBearing: Double
        /// Length of the geodesic, metres.
        public var distance: Double
    }

    /// The direct problem: where a geodesic of given start, azimuth and length ends.
    public struct DirectSolution: Sendable, Equatable {
        public var destination: GeoCoordinate
        /// Forward azimuth at `destination`, degrees clockwise from true north, [0, 360).
        public var finalBearing: Double
    }
}

/// Numerical thresholds shared by the solvers.
enum Tolerance {
    static let epsilon = Double.ulpOfOne
    static let sqrtEpsilon = Double.ulpOfOne.squareRoot()
    /// Stands in for 0 where a division or an exact tie must be avoided (cos β at a pole).
    static let tiny = Double.leastNormalMagnitude.squareRoot()
}
