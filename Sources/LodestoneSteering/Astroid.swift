#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The positive root k of the astroid quartic `k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0`.
///
/// Near antipodal points the geodesics from a start point form an envelope
/// shaped like an astroid; in the scaled coordinates x (longitude short of
/// 180°) and y (latitude sum) the first-order start azimuth follows from this
/// root. It is solved in closed form, choosing the branch that avoids
/// cancellation. Source: C. F. F. Karney, "Algorithms for geodesics",
/// J. Geodesy 87 (2013) 43–55, eqs. (55)–(57).
enum Astroid {
    static func positiveRoot(x: Double, y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        // q = 0 with r ≤ 0 has only the root 0 (the start of the astroid cusp).
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        // The discriminant of the resolvent cubic for u, as s(s + 2r³).
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            // Add the root with the sign that avoids cancellation.
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // Three real roots: take the one continuous with the t3 branch.
            let angle = atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        // u + v without cancellation when u < 0.
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}
