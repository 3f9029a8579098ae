/// Decimal scaling and rounding for numbers printed with a fixed count of
/// decimals, exact to the bit and without libm: every heading, bearing and
/// JSON number goes through them, once per sample.
public enum ExactDecimal {
    /// 10^e for 0 ≤ e ≤ 9 (smaller `e` gives 1, larger 10^9), exactly: a product of whole
    /// numbers below 2^32. A loop rather than a table or a switch: where `e` is a constant
    /// (a number printed with fixed decimals) it folds away, and it leaves the few basic
    /// blocks that let the optimizer inline a caller into each of its call sites.
    @inlinable @inline(__always)
    public static func powerOfTen(_ e: Int) -> Double {
        var power: UInt32 = 1
        var n = min(e, 9)
        while n > 0 {
            power &*= 10
            n -= 1
        }
        return Double(power)
    }

    /// The bound below which ``wholeHalfAwayFromZero(_:)`` takes a number:
    /// callers check `x < wholeLimit` (false for NaN too) and round any other
    /// number another way.
    @inlinable public static var wholeLimit: Double { 9.0e18 }

    /// `x` rounded half away from zero, as a whole number, for 0 ≤ x < ``wholeLimit``:
    /// `x.rounded(.toNearestOrAwayFromZero)` without the call to libm's `round`.
    /// `x` minus its integer part is exact for every `Double`, so comparing it
    /// with one half decides exactly as `round` does.
    @inlinable @inline(__always)
    public static func wholeHalfAwayFromZero(_ x: Double) -> UInt64 {
        // Through Int64 (x < wholeLimit < 2^63): its conversions are one instruction each, UInt64's several.
        let whole = Int64(x)
        return UInt64(x - Double(whole) >= 0.5 ? whole + 1 : whole)
    }
}
