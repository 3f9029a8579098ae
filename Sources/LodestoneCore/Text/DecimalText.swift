/// Numbers for sentences people read (event details, reports): a fixed count
/// of decimals, no exponent, no "-0".
public enum DecimalText {
    /// `x` with `decimals` digits after the point.
    public static func fixed(_ x: Double, _ decimals: Int) -> String {
        guard x.isFinite, abs(x) < 1e15 else { return String(x) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = (abs(x) * scale).rounded()
        let negative = x < 0 && units > 0
        let whole = Int(units / scale), fraction = Int(units - Double(whole) * scale)
        var s = (negative ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            s += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return s
    }

    /// `(x, y, z)` with one decimal each.
    public static func vector(_ v: Vector3) -> String {
        "(\(fixed(v.x, 1)), \(fixed(v.y, 1)), \(fixed(v.z, 1)))"
    }
}
