import LodestoneCore

/// A point given geodetically (WGS 84), converted to the geocentric spherical
/// coordinates in which the model's spherical harmonics are defined.
///
/// Follows the WMM technical report (NOAA, 2025), equations 7 and 17: the
/// geodetic point goes through Earth-centred Cartesian coordinates to radius r
/// and geocentric latitude φ′; the field computed in the spherical frame is
/// turned back by φ′ − φ into the ellipsoidal (geodetic north/east/down)
/// frame. Only sines and cosines are kept, so the poles need no special case:
/// at φ = ±90° the cosine is exactly 0 and the rotation is exact.
struct SphericalPosition {
    /// WGS 84 semi-major axis (km) and flattening.
    static let semiMajorAxis = 6378.137
    static let flattening = 1 / 298.257223563
    static let eccentricitySquared = flattening * (2 - flattening)
    /// The geomagnetic reference radius a (km) of the model's expansion.
    static let referenceRadius = 6371.2

    /// sin φ′ and cos φ′ of the geocentric latitude.
    let sinLatitude: Double
    let cosLatitude: Double
    /// a / r, the reference radius over the geocentric radius.
    let radiusRatio: Double
    /// sin λ and cos λ.
    let sinLongitude: Double
    let cosLongitude: Double
    /// sin and cos of φ′ − φ, the rotation back to the ellipsoidal frame.
    let sinRotation: Double
    let cosRotation: Double

    init(latitude: Double, longitude: Double, height: Double) {
        let geodetic = DegreeTrigonometry.sinCos(latitude)
        let lambda = DegreeTrigonometry.sinCos(longitude)
        let e2 = Self.eccentricitySquared
        // Radius of curvature in the prime vertical.
        let rc = Self.semiMajorAxis / (1 - e2 * geodetic.sin * geodetic.sin).squareRoot()
        let p = (rc + height) * geodetic.cos
        let z = (rc * (1 - e2) + height) * geodetic.sin
        let r = (p * p + z * z).squareRoot()
        sinLatitude = z / r
        cosLatitude = p / r
        radiusRatio = Self.referenceRadius / r
        sinLongitude = lambda.sin
        cosLongitude = lambda.cos
        // φ′ − φ from the angle-difference identities; no inverse trig needed.
        sinRotation = sinLatitude * geodetic.cos - cosLatitude * geodetic.sin
        cosRotation = cosLatitude * geodetic.cos + sinLatitude * geodetic.sin
    }
}
