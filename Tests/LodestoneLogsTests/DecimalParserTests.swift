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

    /// The fast path as a CSV reader uses it: a field parsed up to the byte after
    /// the number, which must then be a comma or the end for the value to count.
    @Test func plainNumbersStopWhereTheFieldEndsAndAgreeWithTheStandardLibrary() {
        var random = RandomSource(seed: 7)
        let shapes = ["-12.345e-6", "9007199254740992", "9007199254740993", "0.0000000000000000001", "00000000000000000001",
                      "1e22", "1e23", "1e-22", "1e-23", "12e+003", "1e0300", "-0", "-0.0e0", "+.5", "5.", ".", "-", "e5", "1e",
                      "1e+", "0.11468830530453245", "4.9e-324", "1.7976931348623157e308", "123456789012345678", "1234567890123456789"]
        var texts = shapes
        for i in 0..<100_000 {
            let digits = Int(random.uniform() * 12)
            let mantissa = String(Int64(random.uniform() * 1e15)).prefix(max(1, digits))
            let point = Int(random.uniform() * Double(mantissa.count + 1))
            var t = String(mantissa.prefix(point)) + "." + String(mantissa.dropFirst(point))
            if i % 2 == 0 { t = "-" + t }
            if i % 7 == 0 { t += "e" + String(Int(random.uniform() * 60) - 30) }
            texts.append(t)
        }
        for text in texts {
            for suffix in ["", ",1.5", " ,2", "x"] {
                var line = text + suffix
                line.withUTF8 { bytes in
                    let start = bytes.baseAddress!, end = start + bytes.count
                    guard let (value, stop) = DecimalParser.parsePlain(from: start, to: end), stop == end || stop.pointee == 0x2C else { return }
                    let field = String(decoding: UnsafeBufferPointer(start: start, count: stop - start), as: UTF8.self)
                    #expect(field == text, "\(text)\(suffix)")
                    #expect(value.bitPattern == Double(text)?.bitPattern, "\(text)")
                }
                // As a log reader reads a line: followed by a byte that is not a digit.
                for terminator in ["\n", "\r", ","] {
                    var terminated = line + terminator
                    terminated.withUTF8 { bytes in
                        let start = bytes.baseAddress!, end = start + bytes.count - 1
                        let bounded = DecimalParser.parsePlain(from: start, to: end)
                        let unbounded = DecimalParser.parsePlain(from: start, to: end, endsBeforeNonDigit: true)
                        #expect(bounded?.value.bitPattern == unbounded?.value.bitPattern && bounded?.stop == unbounded?.stop,
                                "\(text)\(suffix)")
                    }
                }
            }
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
