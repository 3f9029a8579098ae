import Testing
import LodestoneLogs
import LodestoneSimulation

@Suite struct DecimalParserTests {
    @Test func agreesWithTheStandardLibraryOnRandomValues() {
        var random = RandomSource(seed: 42)
        for i in 0..<200_000 {
            let magnitude = Double.random(in: -30...30, using: &random)
            var v = (random.uniform() - 0.5) * 2 * pow10(magnitude)
            if i % 3 == 0 { v = (v * 1000).rounded() / 1000 } // short sensor-style values
            let text = i % 5 == 0 ? String(format6: v) : "\(v)"
            #expect(DecimalParser.parse(text) == Double(text), "\(text)")
        }
    }

    @Test func acceptsCommonSpellingsAndRejectsGarbage() {
        #expect(DecimalParser.parse("  -12.5e-1 ") == -1.25)
        #expect(DecimalParser.parse("+.5") == 0.5)
        #expect(DecimalParser.parse("5.") == 5)
        #expect(DecimalParser.parse("1E3") == 1000)
        #expect(DecimalParser.parse("0.1") == 0.1)
        #expect(DecimalParser.parse("123456789012345678901234567890") == 123456789012345678901234567890.0)
        #expect(DecimalParser.parse("nan")?.isNaN == true)
        for bad in ["", " ", "abc", "1.2.3", "1e", "--1", "1,5", "0x10"] where Double(bad) == nil {
            #expect(DecimalParser.parse(bad) == nil, "\(bad)")
        }
    }
}

private func pow10(_ e: Double) -> Double {
    var r = 1.0
    let n = Int(e.rounded())
    for _ in 0..<abs(n) { r *= 10 }
    return n < 0 ? 1 / r : r
}

private extension String {
    /// Six decimals, like many sensor logs.
    init(format6 v: Double) {
        let scaled = (abs(v) * 1e6).rounded()
        guard scaled < 1e15 else { self = "\(v)"; return }
        let i = Int64(scaled)
        let frac = String(i % 1_000_000)
        self = (v < 0 ? "-" : "") + "\(i / 1_000_000)." + String(repeating: "0", count: 6 - frac.count) + frac
    }
}
