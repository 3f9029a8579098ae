/// A truncated Fourier sine series `Σ c_l sin(2lσ)`, l = 1…6.
///
/// Every correction in the geodesic solution (distance, longitude, reduced
/// length) has this shape. Six fixed fields instead of an array keep the hot
/// loop free of heap allocation, and Clenshaw summation needs only sin σ and
/// cos σ, which the caller already has, instead of twelve trigonometric calls.
struct SineSeries {
    var c1: Double, c2: Double, c3: Double, c4: Double, c5: Double, c6: Double

    /// The series at σ, given sin σ and cos σ (Clenshaw summation).
    @inline(__always)
    func value(sin s: Double, cos c: Double) -> Double {
        let twoCos2 = 2 * (c - s) * (c + s)  // 2 cos 2σ
        let b6 = c6
        let b5 = c5 + twoCos2 * b6
        let b4 = c4 + twoCos2 * b5 - b6
        let b3 = c3 + twoCos2 * b4 - b5
        let b2 = c2 + twoCos2 * b3 - b4
        let b1 = c1 + twoCos2 * b2 - b3
        return b1 * 2 * s * c  // b1 sin 2σ
    }

    /// `self - other`, term by term.
    @inline(__always)
    static func - (lhs: SineSeries, rhs: SineSeries) -> SineSeries {
        SineSeries(c1: lhs.c1 - rhs.c1, c2: lhs.c2 - rhs.c2, c3: lhs.c3 - rhs.c3,
                   c4: lhs.c4 - rhs.c4, c5: lhs.c5 - rhs.c5, c6: lhs.c6 - rhs.c6)
    }

    /// Every coefficient times `factor`.
    @inline(__always)
    static func * (factor: Double, series: SineSeries) -> SineSeries {
        SineSeries(c1: factor * series.c1, c2: factor * series.c2, c3: factor * series.c3,
                   c4: factor * series.c4, c5: factor * series.c5, c6: factor * series.c6)
    }
}
