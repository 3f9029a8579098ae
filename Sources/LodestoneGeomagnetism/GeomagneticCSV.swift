/// One result as a row of NOAA's test-value table, for batch output
/// (`lodestone field --batch`) that can be compared with NOAA's files.
///
/// Columns: `year,alt_km,lat,lon,X,Y,Z,H,F,I,D,GV,Xdot,Ydot,Zdot,Hdot,Fdot,Idot,Ddot`.
/// Precision is the one NOAA prints in its test values, so formatting NOAA's
/// test points reproduces NOAA's rows digit for digit: 0.1 nT for X…F and
/// 0.1 nT/yr for their rates, 0.01° for I, D, GV and 0.01°/yr for Idot,
/// Ddot. The inputs keep up to 6 decimals (trailing zeros dropped, at least
/// one kept), so a row names its point to ~0.1 m and ~30 s. GV is `nan`
/// where undefined (|lat| < 55°). Rounding is half-to-even on the decimal
/// product, which agrees with C's printf except, in rare cases, at an exact
/// binary tie in the last digit.
public enum GeomagneticCSV {
    public static let header = "year,alt_km,lat,lon,X,Y,Z,H,F,I,D,GV,Xdot,Ydot,Zdot,Hdot,Fdot,Idot,Ddot"

    public static func row(_ e: GeomagneticElements) -> String {
        let r = e.yearlyChange
        let fields: [String] = [
            input(e.decimalYear), input(e.height), input(e.latitude), input(e.longitude),
            fixed(e.north, 1), fixed(e.east, 1), fixed(e.down, 1),
            fixed(e.horizontalIntensity, 1), fixed(e.totalIntensity, 1),
            fixed(e.inclination, 2), fixed(e.declination, 2), e.gridVariation.map { fixed($0, 2) } ?? "nan",
            fixed(r.north, 1), fixed(r.east, 1), fixed(r.down, 1),
            fixed(r.horizontalIntensity, 1), fixed(r.totalIntensity, 1),
            fixed(r.inclination, 2), fixed(r.declination, 2),
        ]
        return fields.joined(separator: ",")
    }

    /// `value` with exactly `decimals` decimals, like printf's `%.Nf`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        digits(value, decimals, trim: false)
    }

    /// `value` with up to 6 decimals, trailing zeros dropped, at least one kept.
    static func input(_ value: Double) -> String {
        digits(value, 6, trim: true)
    }

    private static func digits(_ value: Double, _ decimals: Int, trim: Bool) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrEven)
        // Past 2^53 the digits are not meaningful; fall back to Swift's shortest form.
        guard scaled < 0x1p53 else { return "\(value)" }
        var text = String(UInt64(scaled))
        if text.count <= decimals {
            text = String(repeating: "0", count: decimals - text.count + 1) + text
        }
        var fraction = String(text.suffix(decimals))
        let whole = String(text.dropLast(decimals))
        if trim {
            while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        }
        let sign = value < 0 ? "-" : ""
        return decimals == 0 ? sign + whole : sign + whole + "." + fraction
    }
}
