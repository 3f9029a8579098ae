/// Series for the longitude integral of a geodesic, to order 6 in n and ε.
///
/// The longitude on the ellipsoid lags the one on the auxiliary sphere by
/// `f sin α0 I3(σ)`, `I3(σ) = ∫ (2 − f)/(1 + (1 − f)√(1 + k² sin²σ)) dσ
/// = A3 (σ + Σ C3_l sin 2lσ)`. The coefficients depend on the ellipsoid
/// through its third flattening n, so they are reduced to polynomials in ε
/// once per ellipsoid. Because I3 is multiplied by f, terms up to ε⁵ (total
/// degree 5 in n and ε) give order-6 accuracy.
///
/// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013)
/// 43–55, eqs. (24), (25); re-derived here by symbolic expansion.
struct LongitudeSeries: Sendable {
    // A3 = a0 + a1 ε + … + a5 ε⁵.
    private let a1, a2, a3, a4, a5: Double
    // C3_l = ε^l (c_l,l + c_l,l+1 ε + …), l = 1…5.
    private let c11, c12, c13, c14, c15: Double
    private let c22, c23, c24, c25: Double
    private let c33, c34, c35: Double
    private let c44, c45: Double
    private let c55: Double

    init(thirdFlattening n: Double) {
        let n2 = n * n
        a1 = -(1.0 / 2 - n / 2)
        a2 = -(1.0 / 4 + n / 8 - 3 * n2 / 8)
        a3 = -(1.0 / 16 + 3 * n / 16 + n2 / 16)
        a4 = -(3.0 / 64 + n / 32)
        a5 = -3.0 / 128
        c11 = 1.0 / 4 - n / 4
        c12 = 1.0 / 8 - n2 / 8
        c13 = 3.0 / 64 + 3 * n / 64 - n2 / 64
        c14 = 5.0 / 128 + n / 64
        c15 = 3.0 / 128
        c22 = 1.0 / 16 - 3 * n / 32 + n2 / 32
        c23 = 3.0 / 64 - n / 32 - 3 * n2 / 64
        c24 = 3.0 / 128 + n / 128
        c25 = 5.0 / 256
        c33 = 5.0 / 192 - 3 * n / 64 + 5 * n2 / 192
        c34 = 3.0 / 128 - 5 * n / 192
        c35 = 7.0 / 512
        c44 = 7.0 / 512 - 7 * n / 256
        c45 = 7.0 / 512
        c55 = 21.0 / 2560
    }

    /// A3 (eq. 24).
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        1 + eps * (a1 + eps * (a2 + eps * (a3 + eps * (a4 + eps * a5))))
    }

    /// C3_l (eq. 25); the sixth term is zero at this order.
    @inline(__always)
    func c3(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps
        return SineSeries(
            c1: eps * (c11 + eps * (c12 + eps * (c13 + eps * (c14 + eps * c15)))),
            c2: e2 * (c22 + eps * (c23 + eps * (c24 + eps * c25))),
            c3: e3 * (c33 + eps * (c34 + eps * c35)),
            c4: e4 * (c44 + eps * c45),
            c5: e5 * c55,
            c6: 0)
    }
}
