import Testing
@testable import LodestoneHTTP

@Suite struct EventRingTests {
    @Test func keepsTheNewestAndSaysWhatWasDropped() {
        var ring = EventRing(capacity: 3)
        for i in 0..<5 { ring.append([UInt8(i)]) }
        #expect(ring.first == 2 && ring.next == 5)
        #expect(ring.event(1) == nil)
        #expect(ring.event(2) == [2] && ring.event(4) == [4])
        #expect(ring.event(5) == nil)
    }
}
