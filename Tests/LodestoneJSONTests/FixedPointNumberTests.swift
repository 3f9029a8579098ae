import LodestoneJSON
import Testing

/// `appendNumber(_:decimals:)` writes what it always wrote: every byte of NDJSON
/// output (replay, the service's protocol) depends on it.
@Suite struct FixedPointNumberTests {
    static func written(_ value: Double, decimals: Int) -> String {
        let w = JSONLineBuilder(capacity: 1024)
        w.appendNumber(value, decimals: decimals)
        return w.text
    }

    /// The first implementation, kept as the reference: scale, round half away
    /// from zero, then digits one by one from the right, the point after `decimals`.
    static func reference(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        let d = max(0, min(9, decimals))
        var unit = 1.0
        for _ in 0..<d { unit *= 10 }
        let scaled = (abs(value) * unit).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { return "\(value)" }
        var n = UInt64(scaled)
        var digits: [UInt8] = []
        var written = 0
        repeat {
            if written == d, d > 0 { digits.append(0x2E) }
            digits.append(UInt8(n % 10) + 0x30)
            n /= 10
            written += 1
        } while n > 0 || written <= d
        if value < 0, scaled != 0 { digits.append(0x2D) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    @Test func edgeCasesMatchTheReference() {
        let values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.0005, -0.0005, 0.00049999999999999996, 0.49999999999999994,
                                359.9995, 359.99949999999995, 1e-300, -1e-300, 9.0e18, 8.999999999999999e18, 9.5e17, 1e19,
                                -1e19, 123_456_789.123_456_789, 4_503_599_627_370_495.5, 4_503_599_627_370_497, 9_007_199_254_740_994,
                                .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan,
                                99, 100, 999.9999999, 0.1, 0.01, 0.001, 2999.99, 275.79, -15.356]
        for v in values {
            for d in -1...11 {
                #expect(Self.written(v, decimals: d) == Self.reference(v, decimals: d), "\(v), \(d) decimals")
            }
        }
    }

    @Test func randomValuesMatchTheReference() {
        var generator = SystemRandomNumberGenerator()
        for i in 0..<200_000 {
            let d = i % 11 - 1
            let v: Double
            switch i % 4 {
            case 0: v = Double(bitPattern: generator.next() as UInt64)
            case 1: v = Double.random(in: -1000...1000, using: &generator)
            case 2:
                // Exact halves at the last printed digit, and their neighbours.
                let half = (Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) + 0.5) / 1000
                v = [half, half.nextUp, half.nextDown][i % 3]
            default: v = Double.random(in: -1...1, using: &generator) * 1e18
            }
            #expect(Self.written(v, decimals: d) == Self.reference(v, decimals: d), "\(v), \(d) decimals")
        }
    }
}
