import LodestoneSteering

extension JSONLineBuilder {
    /// A heading, bearing or course in degrees: rounded to `decimals`, then wrapped into
    /// [0, 360), so that 359.99999 prints as 0.000 and never as 360.000 (issue 13). Null
    /// when nil or not finite. Inlined, so that the decimals of a caller's bearing are a constant.
    @inline(__always)
    public func bearing(_ name: StaticString, _ degrees: Double?, decimals: Int) {
        number(name, degrees.map { $0.isFinite ? BearingRounding.rounded($0, decimals: decimals) : $0 }, decimals: decimals)
    }

    /// A signed difference of directions, rounded to `decimals`, then wrapped into [−180, 180).
    public func signedAngle(_ name: StaticString, _ degrees: Double?, decimals: Int) {
        number(name, degrees.map { $0.isFinite ? BearingRounding.roundedSigned($0, decimals: decimals) : $0 }, decimals: decimals)
    }
}
