#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sine and cosine of an angle in degrees, reduced in degrees first.
///
/// Why not `sin(x * .pi / 180)`: that gives cos 90° = 6e-17 instead of 0 and
/// makes longitudes 180° and -180° (or λ and λ + 360°) differ in the last
/// bits. Reducing in degrees (exact for any finite input) makes the poles,
/// the dateline and whole-turn offsets exact.
struct DegreeSineCosine {
    let sine: Double
    let cosine: Double

    init(degrees: Double) {
        // remainder is exact; the result lies in [-180, 180].
        let reduced = abs(degrees) <= 180 ? degrees : remainder(degrees, 360)
        // Nearest multiple of 90°, so that the rest lies in [-45°, 45°].
        let quadrant = reduced > 135 ? 2 : reduced > 45 ? 1 : reduced >= -45 ? 0 : reduced >= -135 ? -1 : -2
        // Exact (Sterbenz): reduced and 90·quadrant are within a factor 2 of each other.
        let radians = (reduced - 90 * Double(quadrant)) * (Double.pi / 180)
        let s = sin(radians)
        // |radians| <= π/4, so 1 − s² >= 1/2: no cancellation, and cheaper than cos.
        let c = (1 - s * s).squareRoot()
        switch quadrant {
        case 1: sine = c; cosine = -s
        case -1: sine = -c; cosine = s
        case 2, -2: sine = -s; cosine = -c
        default: sine = s; cosine = c
        }
    }
}
