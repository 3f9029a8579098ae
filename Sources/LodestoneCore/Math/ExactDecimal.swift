/// Decimal scaling and rounding for numbers printed with a fixed count of
/// decimals, exact to the bit and without libm: every heading, bearing and
/// JSON number goes through them, once per sample.
public enum ExactDecimal {
    /// 10^e for 0 ≤ e ≤ 9 (larger `e` gives 10^9): the values a loop of `*= 10` gives, from a table.
    @inlinable @inline(__always)
    public static func powerOfTen(_ e: Int) -> Double {
        switch e {
        case ...0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        default: 1_000_000_000
        }
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
        let whole = UInt64(x)
        return x - Double(whole) >= 0.5 ? whole + 1 : whole
    }
}
