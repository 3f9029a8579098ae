/// A model's Gauss coefficients rearranged for evaluation by columns.
///
/// Why columns: for a fixed order m the Schmidt semi-normalised Legendre
/// functions P_n^m follow a three-term recursion in the degree n. Walking one
/// column at a time, every term needs only the two before it, so evaluation
/// keeps no per-point tables (no allocation, no scratch buffers) and reads
/// this table front to back. The recursion factors depend only on (n, m), so
/// they are computed once per model and stored beside the coefficients.
///
/// Order: m = 0...N outer; inside column m, n runs from max(m, 1) to N.
struct ColumnTable: Sendable {
    let degree: Int
    let rateDegree: Int
    /// Four numbers per term: g, h (nT), then the recursion factors a, b.
    /// For n > m: a = (2n-1)/√(n²-m²), b = √(((n-1)²-m²)/(n²-m²)), so that
    /// P_n^m = a sin φ′ P_{n-1}^m - b P_{n-2}^m. For the sectoral term n = m ≥ 1,
    /// a holds k_m with P_m^m = k_m cos φ′ P_{m-1}^{m-1}: k_1 = 1,
    /// k_m = √((2m-1)/(2m)); b is unused there.
    let terms: [Double]
    /// Two numbers per term with n <= rateDegree, in the same column order:
    /// the secular variation gdot, hdot (nT/yr).
    let rates: [Double]

    init(_ payload: CoefficientPayload) {
        let rows = payload.parse()
        let degree = payload.mainFieldDegree
        let rateDegree = payload.secularVariationDegree
        self.degree = degree
        self.rateDegree = rateDegree

        // Index of (n, m) in `.COF` row order (n = 1...N, m = 0...n).
        func row(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 - 1 + m }
        var terms: [Double] = []
        var rates: [Double] = []
        terms.reserveCapacity(rows.mainField.count * 2)
        rates.reserveCapacity(rows.secularVariation.count)
        for m in 0...degree {
            for n in max(m, 1)...degree {
                let i = row(n, m)
                let a: Double
                let b: Double
                if n == m {
                    a = m == 1 ? 1 : (Double(2 * m - 1) / Double(2 * m)).squareRoot()
                    b = 0
                } else {
                    let nm = Double(n * n - m * m)
                    a = Double(2 * n - 1) / nm.squareRoot()
                    b = (Double((n - 1) * (n - 1) - m * m) / nm).squareRoot()
                }
                terms.append(rows.mainField[2 * i])
                terms.append(rows.mainField[2 * i + 1])
                terms.append(a)
                terms.append(b)
                if n <= rateDegree {
                    rates.append(rows.secularVariation[2 * i])
                    rates.append(rows.secularVariation[2 * i + 1])
                }
            }
        }
        self.terms = terms
        self.rates = rates
    }

    /// g, h and gdot, hdot of (n, m), looked up by walking the layout; for tests.
    func coefficients(n: Int, m: Int) -> (g: Double, h: Double, gDot: Double, hDot: Double) {
        var term = 0
        var rate = 0
        for column in 0..<m {
            term += degree - max(column, 1) + 1
            rate += column <= rateDegree ? rateDegree - max(column, 1) + 1 : 0
        }
        term += n - max(m, 1)
        rate += n - max(m, 1)
        let hasRate = n <= rateDegree
        return (terms[4 * term], terms[4 * term + 1],
                hasRate ? rates[2 * rate] : 0, hasRate ? rates[2 * rate + 1] : 0)
    }
}
