/// One model's coefficients as compiled into the binary (see `Generated/`).
///
/// The numbers live in a `StaticString` rather than a Swift array literal:
/// an array literal of ~18,000 numbers takes the type checker minutes, a
/// string literal compiles at once, sits in read-only data, and is parsed
/// once, at first use of the model.
///
/// Text format, written by `tools/generate-geomagnetic-coefficients.py`:
/// whitespace-separated integers in units of 10^-`decimals` nT (nT/yr for
/// rates), rows in `.COF` order (n = 1...N, m = 0...n). Each row is `g h`,
/// followed by `gdot hdot` while n <= `secularVariationDegree`.
struct CoefficientPayload: Sendable {
    let name: String
    let epoch: Double
    let releaseDate: String
    let mainFieldDegree: Int
    let secularVariationDegree: Int
    let decimals: Int
    let text: StaticString

    /// Gauss coefficients in `.COF` row order.
    struct Rows {
        /// g and h per row (nT), two numbers a row.
        var mainField: [Double] = []
        /// gdot and hdot per row (nT/yr), two numbers a row, rows n <= secular-variation degree.
        var secularVariation: [Double] = []
    }

    /// Parses the payload. The text is generated and checked by tests, so a
    /// malformed payload is a build defect and traps.
    func parse() -> Rows {
        var divisor = 1.0
        for _ in 0..<decimals { divisor *= 10 }
        let rowCount = mainFieldDegree * (mainFieldDegree + 3) / 2
        let rateRowCount = secularVariationDegree * (secularVariationDegree + 3) / 2
        var rows = Rows()
        rows.mainField.reserveCapacity(2 * rowCount)
        rows.secularVariation.reserveCapacity(2 * rateRowCount)

        text.withUTF8Buffer { bytes in
            var index = 0
            // Integer / 10^d is correctly rounded, so each value equals the
            // Double a decimal parser would give for the `.COF` text.
            func next() -> Double {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
                precondition(index < bytes.count, "\(name) coefficient payload ends early")
                var negative = false
                if bytes[index] == 0x2D { negative = true; index += 1 }
                var value: Int64 = 0
                var digits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    value = value * 10 + Int64(bytes[index] - 0x30)
                    index += 1
                    digits += 1
                }
                precondition(digits > 0, "\(name) coefficient payload is malformed at byte \(index)")
                return Double(negative ? -value : value) / divisor
            }
            for n in 1...mainFieldDegree {
                for _ in 0...n {
                    rows.mainField.append(next())
                    rows.mainField.append(next())
                    if n <= secularVariationDegree {
                        rows.secularVariation.append(next())
                        rows.secularVariation.append(next())
                    }
                }
            }
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            precondition(index == bytes.count, "\(name) coefficient payload has trailing data")
        }
        precondition(rows.mainField.count == 2 * rowCount && rows.secularVariation.count == 2 * rateRowCount)
        return rows
    }
}
