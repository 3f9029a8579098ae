import Testing
@testable import LodestoneService

@Suite struct NMEAEncoderTests {
    func sentences(_ m: Double, _ t: Double?, _ v: Double?, talker: String = "HC") -> [String] {
        var out: [UInt8] = []
        NMEAEncoder(talker: talker).append(magneticHeading: m, trueHeading: t, variation: v, to: &out)
        // Split on LF bytes: "\r\n" is one Character in Swift.
        return out.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Checksums computed independently (Python: XOR of the bytes between $ and *).
    @Test func sentencesAndChecksums() {
        #expect(sentences(123.44, 127.7, 4.3) == ["$HCHDM,123.4,M*2D\r", "$HCHDT,127.7,T*2A\r", "$HCHDG,123.4,,,4.3,E*2A\r"])
        #expect(sentences(359.94, nil, -12.46) == ["$HCHDM,359.9,M*2F\r", "$HCHDG,359.9,,,12.5,W*0B\r"])
        #expect(sentences(0, nil, nil) == ["$HCHDM,0.0,M*29\r", "$HCHDG,0.0,,,,*42\r"])
        #expect(sentences(5, 5, nil, talker: "II")[1] == "$IIHDT,5.0,T*27\r")
    }

    @Test func headingsRoundIntoZeroTo360() {
        #expect(sentences(359.96, 359.99, nil)[0].hasPrefix("$HCHDM,0.0,M*"))
        #expect(sentences(359.96, 359.99, nil)[1].hasPrefix("$HCHDT,0.0,T*"))
        #expect(sentences(0.04, nil, 0.04)[1].hasPrefix("$HCHDG,0.0,,,0.0,E*"))
        #expect(sentences(10, nil, -0.04)[1].hasPrefix("$HCHDG,10.0,,,0.0,E*"))
    }

    @Test func everySentenceHasAValidChecksumAndFitsNMEAsLineLength() {
        for m in stride(from: 0.0, to: 360, by: 7.3) {
            for s in sentences(m, m + 3.3, m / 30 - 6) {
                #expect(NMEAEncoder.hasValidChecksum(s), "\(s)")
                #expect(s.utf8.count + 1 <= 82, "\(s)")
            }
        }
        #expect(!NMEAEncoder.hasValidChecksum("$HCHDM,123.4,M*2C"))
        #expect(!NMEAEncoder.hasValidChecksum("HCHDM,123.4,M*2D"))
    }

    @Test func nonFiniteHeadingsWriteNothing() {
        #expect(sentences(.nan, 3, 1).isEmpty)
        #expect(sentences(10, .infinity, .nan) == ["$HCHDM,10.0,M*18\r", "$HCHDG,10.0,,,,*73\r"])
    }

    func attitude(_ pitch: Double, _ roll: Double, talker: String = "HC") -> [String] {
        var out: [UInt8] = []
        NMEAEncoder(talker: talker).appendAttitude(pitch: pitch, roll: roll, to: &out)
        return out.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Checksums computed independently (Python: XOR of the bytes between $ and *).
    @Test func pitchAndRollAsXDRTransducers() {
        #expect(attitude(12.34, -4.46) == ["$HCXDR,A,12.3,D,PTCH,A,-4.5,D,ROLL*4B\r"])
        #expect(attitude(-90, 180) == ["$HCXDR,A,-90.0,D,PTCH,A,180.0,D,ROLL*4A\r"])
        #expect(attitude(5.05, -0.05, talker: "II") == ["$IIXDR,A,5.1,D,PTCH,A,-0.1,D,ROLL*74\r"])
    }

    @Test func xdrWritesNoNegativeZeroAndNothingForNonFiniteAngles() {
        #expect(attitude(-0.04, -0.01) == ["$HCXDR,A,0.0,D,PTCH,A,0.0,D,ROLL*57\r"])
        #expect(attitude(.nan, 3).isEmpty)
        #expect(attitude(3, .infinity).isEmpty)
        for p in stride(from: -90.0, through: 90, by: 7.7) {
            for s in attitude(p, p * 1.9) {
                #expect(NMEAEncoder.hasValidChecksum(s), "\(s)")
                #expect(s.utf8.count + 1 <= 82, "\(s)")
            }
        }
    }
}
