import Testing
import LodestoneNetwork

@Suite struct LineAssemblerTests {
    func feed(_ a: inout LineAssembler, _ chunks: [String]) -> [String] {
        var out: [String] = []
        for c in chunks {
            Array(c.utf8).withUnsafeBytes { raw in
                a.feed(raw) { item, line in
                    out.append(item == .tooLong ? "<too long>" : String(decoding: line, as: UTF8.self))
                }
            }
        }
        return out
    }

    @Test func joinsPiecesAndSplitsLines() {
        var a = LineAssembler(limit: 100)
        #expect(feed(&a, ["?PO", "LL;\n?VER", "SION;\n\n", "?DEV"]) == ["?POLL;", "?VERSION;", ""])
        #expect(a.pendingCount == 4)
        #expect(feed(&a, ["ICES;\n"]) == ["?DEVICES;"])
    }

    @Test func overLongLinesAreReportedOnceAndSkippedToTheirEnd() {
        var a = LineAssembler(limit: 10)
        let long = String(repeating: "x", count: 25)
        #expect(feed(&a, [long.prefix(8) + "", String(long.dropFirst(8)), "yyy\n?POLL;\n"]) == ["<too long>", "?POLL;"])
        #expect(feed(&a, [long + "\nok\n"]) == ["<too long>", "ok"])
        #expect(feed(&a, ["12345", "678901\nok\n"]) == ["<too long>", "ok"])
        #expect(a.pendingCount == 0)
    }

    @Test func aLineOfExactlyTheLimitPasses() {
        var a = LineAssembler(limit: 10)
        #expect(feed(&a, ["0123456789\n", "01234", "56789\n"]) == ["0123456789", "0123456789"])
    }

    /// A `\r` before the newline does not count (issue 13: a 1,024-byte command with `\r`
    /// counted as 1,025 bytes and was refused), in one piece or split anywhere.
    @Test func aCarriageReturnDoesNotCountTowardsTheLimit() {
        var a = LineAssembler(limit: 10)
        #expect(feed(&a, ["0123456789\r\n"]) == ["0123456789\r"])
        #expect(feed(&a, ["01234", "56789\r", "\n"]) == ["0123456789\r"])
        #expect(feed(&a, ["01234567890\n", "0123456789x\n", "0123456789\r\r\n", "ok\n"]) == ["<too long>", "<too long>", "<too long>", "ok"])
        #expect(feed(&a, ["01234", "56789x", "\n", "ok\n"]) == ["<too long>", "ok"])
        #expect(a.pendingCount == 0)
    }
}
