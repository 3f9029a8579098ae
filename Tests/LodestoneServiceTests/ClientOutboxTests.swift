import Testing
@testable import LodestoneService

@Suite struct ClientOutboxTests {
    func line(_ n: Int, width: Int = 10) -> [UInt8] {
        let s = String(n)
        return Array((String(repeating: "x", count: width - 1 - s.count) + s + "\n").utf8)
    }

    func enqueue(_ box: inout ClientOutbox, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { _ = box.enqueue($0) }
    }

    /// Drains the box through a socket that takes at most `chunk` bytes per call.
    func drain(_ box: inout ClientOutbox, chunk: Int = .max) -> String {
        var out: [UInt8] = []
        _ = box.flush { raw in
            let n = min(chunk, raw.count)
            out += raw.prefix(n)
            return n
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func keepsOrderWithinTheLimit() {
        var box = ClientOutbox(limit: 100)
        for i in 0..<10 { enqueue(&box, line(i)) }
        #expect(box.queuedBytes == 100)
        #expect(box.droppedLines == 0)
        #expect(drain(&box) == (0..<10).map { String(decoding: line($0), as: UTF8.self) }.joined())
        #expect(box.isEmpty)
    }

    @Test func dropsTheOldestWholeLinesWhenFull() {
        var box = ClientOutbox(limit: 100)
        for i in 0..<25 { enqueue(&box, line(i)) }
        #expect(box.droppedLines == 15)
        #expect(drain(&box) == (15..<25).map { String(decoding: line($0), as: UTF8.self) }.joined())
        #expect(box.takeDroppedCount() == 15)
        #expect(box.droppedLines == 0)
        #expect(box.totalDroppedLines == 15)
    }

    @Test func aPartlyWrittenLineIsFinishedNeverTorn() {
        var box = ClientOutbox(limit: 100)
        for i in 0..<10 { enqueue(&box, line(i)) }
        // The socket takes 4 bytes of line 0, then nothing.
        var first: [UInt8] = []
        _ = box.flush { raw in
            if !first.isEmpty { return 0 }
            first = Array(raw.prefix(4))
            return 4
        }
        for i in 10..<30 { enqueue(&box, line(i)) }
        let rest = drain(&box, chunk: 3)
        let text = String(decoding: first, as: UTF8.self) + rest
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == String(decoding: line(0).dropLast(), as: UTF8.self))
        #expect(lines.allSatisfy { $0.count == 9 }, "\(lines)")
        #expect(lines.last == String(decoding: line(29).dropLast(), as: UTF8.self))
        #expect(lines.count == 10)
        #expect(box.totalDroppedLines == 20)
    }

    @Test func theRestOfADirectWriteGoesFirst() {
        var box = ClientOutbox(limit: 30)
        let l = line(7)
        l.withUnsafeBufferPointer { box.enqueueRest(UnsafeBufferPointer(rebasing: $0[6...])) }
        for i in 0..<5 { enqueue(&box, line(i)) }
        // 4 bytes of rest + 2 whole lines fit in 30; the rest of line 7 is never dropped.
        #expect(drain(&box) == String(decoding: l[6...], as: UTF8.self)
                + (3..<5).map { String(decoding: line($0), as: UTF8.self) }.joined())
    }

    @Test func aLineLongerThanTheLimitIsDroppedItself() {
        var box = ClientOutbox(limit: 20)
        enqueue(&box, line(1))
        enqueue(&box, line(2, width: 25))
        #expect(box.droppedLines == 1)
        #expect(drain(&box) == String(decoding: line(1), as: UTF8.self))
    }

    @Test func aFailedSocketIsReported() {
        var box = ClientOutbox(limit: 100)
        enqueue(&box, line(1))
        #expect(!box.flush { _ in -1 })
        #expect(!box.isEmpty)
    }

    @Test func longRunsStayWithinTheLimit() {
        var box = ClientOutbox(limit: 1000)
        var written = 0
        for i in 0..<100_000 {
            enqueue(&box, line(i, width: 17))
            #expect(box.queuedBytes <= 1000)
            if i % 7 == 0 { written += drain(&box, chunk: 50).utf8.count }
        }
        #expect(written > 0)
    }

    /// Lines of many lengths through a queue that wraps round its storage, grows and
    /// shrinks, with a socket that takes random amounts: what arrives is every line not
    /// counted as dropped, whole and in order, and what was dropped was the oldest.
    @Test func randomTrafficKeepsWholeLinesInOrder() {
        var random = SystemRandomNumberGenerator()
        var box = ClientOutbox(limit: 5000)
        var out: [UInt8] = []
        var sent = 0
        for round in 0..<3000 {
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let width = Int.random(in: 8...900, using: &random)
                enqueue(&box, line(sent, width: width))
                sent += 1
            }
            #expect(box.queuedBytes <= 5000)
            // Sometimes the socket is stuck for a while, then takes a lot or a little.
            let take = round % 97 < 40 ? 0 : Int.random(in: 1...3000, using: &random)
            _ = box.flush { raw in
                let n = min(take - (out.count % max(take, 1)), raw.count, take)
                out += raw.prefix(max(n, 0))
                return max(n, 0)
            }
        }
        out += drain(&box).utf8
        let received = String(decoding: out, as: UTF8.self).split(separator: "\n").map { Int($0.drop { $0 == "x" })! }
        #expect(received.count + box.totalDroppedLines == sent)
        #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "lines out of order")
        #expect(received.last == sent - 1, "the newest line arrives")
    }
}
