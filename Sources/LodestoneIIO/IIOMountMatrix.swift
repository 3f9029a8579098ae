import LodestoneCore

/// The `mount_matrix` ABI: text `"a, b, c; d, e, f; g, h, i"`, row-major, with
/// `v_device = M · v_chip` (Documentation/ABI/testing/sysfs-bus-iio).
public enum IIOMountMatrix {
    /// Parses the attribute text; nil when it is not nine finite numbers in three rows.
    public static func parse(_ text: some StringProtocol) -> Matrix3? {
        let rows = IIOText.trimmed(text).split(separator: ";", omittingEmptySubsequences: false)
        guard rows.count == 3 else { return nil }
        var v: [Double] = []
        for row in rows {
            let cols = row.split(separator: ",", omittingEmptySubsequences: false)
            guard cols.count == 3 else { return nil }
            for c in cols {
                guard let d = IIOText.double(c) else { return nil }
                v.append(d)
            }
        }
        return Matrix3(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8])
    }

    /// The text the kernel prints for `m` (integers without decimals).
    public static func format(_ m: Matrix3) -> String {
        func f(_ d: Double) -> String {
            if d == d.rounded(), abs(d) < 1e9 { return String(Int(d)) }
            return String(d)
        }
        return (0..<3).map { r in (0..<3).map { c in f(m[r, c]) }.joined(separator: ", ") }.joined(separator: "; ")
    }

    /// Row-major entries of `m`, for JSON.
    public static func entries(_ m: Matrix3) -> [Double] {
        (0..<3).flatMap { r in (0..<3).map { c in m[r, c] } }
    }
}
