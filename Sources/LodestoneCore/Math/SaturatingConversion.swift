extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped into this type's range; NaN gives 0.
    ///
    /// For numbers that come from outside (a rate read from sysfs, a timeout from a
    /// caller): `Int(_:)` traps on NaN, infinities and values out of range, and a
    /// service must not (issue 13's audit; `tools/lint-conversions`).
    @inlinable
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = Self.min
        } else if value >= Double(Self.max) {
            self = Self.max
        } else {
            self = Self(value)
        }
    }
}
