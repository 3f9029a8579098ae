/// Series for the distance integrals of a geodesic, to order 6 in ε.
///
/// On the auxiliary sphere a geodesic's length is
/// `s/b = I1(σ) = ∫ √(1 + k² sin²σ) dσ` and its reduced length needs
/// `I2(σ) = ∫ 1/√(1 + k² sin²σ) dσ`, with `k² = e'² cos²α0` and
/// `ε = (√(1+k²) − 1)/(√(1+k²) + 1)`. In ε both expand as `A(σ + Σ C_l sin 2lσ)`
/// with rapidly shrinking coefficients (ε ≤ 0.0017 on WGS84), so order 6 is
/// exact to double precision.
///
/// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013)
/// 43–55, eqs. (17), (18), (21), (42), (43). The coefficients were re-derived
/// here by symbolic expansion and agree with the paper.
enum DistanceSeries {
    /// A1 − 1, where `I1(σ) = A1 (σ + Σ C1_l sin 2lσ)` (eq. 17).
    @inline(__always)
    static func a1Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256  // ε²/4 + ε⁴/64 + ε⁶/256
        return (t + eps) / (1 - eps)
    }

    /// C1_l (eq. 18).
    @inline(__always)
    static func c1(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e3 * e3
        return SineSeries(
            c1: -eps / 2 + 3 * e3 / 16 - e5 / 32,
            c2: -e2 / 16 + e4 / 32 - 9 * e6 / 2048,
            c3: -e3 / 48 + 3 * e5 / 256,
            c4: -5 * e4 / 512 + 3 * e6 / 512,
            c5: -7 * e5 / 1280,
            c6: -7 * e6 / 2048)
    }

    /// C1′_l, the reversion `σ = τ + Σ C1′_l sin 2lτ` of `τ = σ + Σ C1_l sin 2lσ` (eq. 21).
    /// The direct problem uses it to turn a distance into an arc length.
    @inline(__always)
    static func c1Reverted(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e3 * e3
        return SineSeries(
            c1: eps / 2 - 9 * e3 / 32 + 205 * e5 / 1536,
            c2: 5 * e2 / 16 - 37 * e4 / 96 + 1335 * e6 / 4096,
            c3: 29 * e3 / 96 - 75 * e5 / 128,
            c4: 539 * e4 / 1536 - 2391 * e6 / 2560,
            c5: 3467 * e5 / 7680,
            c6: 38081 * e6 / 61440)
    }

    /// A2 − 1, where `I2(σ) = A2 (σ + Σ C2_l sin 2lσ)` (eq. 42).
    @inline(__always)
    static func a2Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (25 * e2 + 36) + 64) / 256  // ε²/4 + 9ε⁴/64 + 25ε⁶/256
        return t * (1 - eps) - eps
    }

    /// C2_l (eq. 43).
    @inline(__always)
    static func c2(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e3 * e3
        return SineSeries(
            c1: eps / 2 + e3 / 16 + e5 / 32,
            c2: 3 * e2 / 16 + e4 / 32 + 35 * e6 / 2048,
            c3: 5 * e3 / 48 + 5 * e5 / 256,
            c4: 35 * e4 / 512 + 7 * e6 / 512,
            c5: 63 * e5 / 1280,
            c6: 77 * e6 / 2048)
    }
}
