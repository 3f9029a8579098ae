import Testing
@testable import Lodestone

/// The streams a manager hands out: finished, they give what they hold first; closed (a
/// stop), nothing more; dropped by their reader, they leave the fan-out.
@Suite struct StreamFanOutTests {
    @Test func aFinishedStreamGivesWhatItHoldsFirst() async {
        let fanOut = StreamFanOut<Int>(keepingNewest: 8)
        let stream = fanOut.stream()
        for i in 1...3 { fanOut.yield(i) }
        fanOut.finish()
        var got: [Int] = []
        for await i in stream { got.append(i) }
        #expect(got == [1, 2, 3])
    }

    @Test func aClosedStreamGivesNothingMore() async {
        let fanOut = StreamFanOut<Int>(keepingNewest: 8)
        let stream = fanOut.stream()
        for i in 1...3 { fanOut.yield(i) }
        fanOut.close()
        fanOut.yield(4)
        var got: [Int] = []
        for await i in stream { got.append(i) }
        #expect(got.isEmpty)
        #expect(fanOut.openStreams == 0)
    }

    /// A reader that leaves its loop drops the stream: it must not stay in the fan-out,
    /// buffering for no one as long as the manager lives.
    @Test func aStreamItsReaderDropsLeaves() async throws {
        let fanOut = StreamFanOut<Int>(keepingNewest: 8)
        do {
            let stream = fanOut.stream()
            fanOut.yield(1)
            fanOut.yield(2)
            for await _ in stream { break }
        }
        #expect(fanOut.openStreams == 0)
    }
}
