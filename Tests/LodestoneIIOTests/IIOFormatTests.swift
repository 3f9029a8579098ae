import Foundation
import Testing
import LodestoneCore
@testable import LodestoneIIO

@Suite struct IIOScanTypeTests {
    @Test func parsesEveryTypeInTheLayouts() throws {
        let cases: [(String, Bool, Bool, Int, Int, Int, Int)] = [
            ("le:s16/16>>0", false, true, 16, 16, 0, 1), ("be:s16/16>>0", true, true, 16, 16, 0, 1),
            ("le:s12/16>>4", false, true, 12, 16, 4, 1), ("be:s24/32>>8", true, true, 24, 32, 8, 1),
            ("le:s32/32>>0", false, true, 32, 32, 0, 1), ("le:s64/64>>0", false, true, 64, 64, 0, 1),
            ("be:s13/16>>0", true, true, 13, 16, 0, 1), ("le:u16/16X3>>0\n", false, false, 16, 16, 0, 3),
        ]
        for (text, be, s, real, storage, shift, rep) in cases {
            let t = try #require(IIOScanType(parsing: text), "\(text)")
            #expect(t == IIOScanType(isBigEndian: be, isSigned: s, realBits: real, storageBits: storage, shift: shift, repeatCount: rep))
            #expect(t.description == text.trimmingCharacters(in: .newlines))
        }
        for bad in ["", "xe:s16/16>>0", "le:s16/16", "le:s17/16>>0", "le:s12/16>>8", "le:q16/16>>0", "le:s16/24>>0"] {
            #expect(IIOScanType(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func decodesKnownBytes() {
        func decode(_ type: String, _ bytes: [UInt8]) -> Int64 {
            bytes.withUnsafeBytes { IIOScanType(parsing: type)!.decode($0.baseAddress!) }
        }
        #expect(decode("le:s16/16>>0", [0x34, 0x12]) == 0x1234)
        #expect(decode("be:s16/16>>0", [0xFF, 0xFE]) == -2)
        // LIS3DH: 12 bits left-justified in 16; -1000 << 4 = 0xC180.
        #expect(decode("le:s12/16>>4", [0x80, 0xC1]) == -1000)
        // RM3100: 24 bits in the top of a big-endian 32-bit word.
        #expect(decode("be:s24/32>>8", [0xFF, 0xFF, 0xFE, 0x00]) == -2)
        #expect(decode("le:u16/16>>0", [0xFF, 0xFF]) == 65535)
        #expect(decode("le:s64/64>>0", [0x00, 0x10, 0xA5, 0xD4, 0xE8, 0x00, 0x00, 0x00]) == 1_000_000_000_000)
    }

    /// 64-bit channels: the range is computed without overflow (found by `tools/fuzz iio`:
    /// `le:s64/64>>0` in a magnetometer's type file trapped in discovery).
    @Test func sixtyFourBitRangesDoNotOverflow() {
        let s64 = IIOScanType(parsing: "le:s64/64>>0")!, u64 = IIOScanType(parsing: "le:u64/64>>0")!
        #expect(s64.maximumValue == Int64.max && s64.minimumValue == Int64.min)
        #expect(u64.maximumValue == Int64.max && u64.minimumValue == 0)
        // 63 unsigned bits: 2⁶³ − 1, which 1 << 63 − 1 overflowed (found by `tools/fuzz iio` in CI).
        #expect(IIOScanType(parsing: "le:u63/64>>0")!.maximumValue == Int64.max)
        #expect(IIOScanType(parsing: "le:u62/64>>0")!.maximumValue == Int64.max >> 1)
        #expect(IIOScanType(parsing: "le:s16/16>>0")!.minimumValue == -32768)
        #expect(IIOScanType(parsing: "be:s24/32>>8")!.maximumValue == 8_388_607)
        // An unsigned 64-bit value above Int64.max reads as the largest, never as negative.
        let all = [UInt8](repeating: 0xFF, count: 8)
        #expect(all.withUnsafeBytes { u64.decode($0.baseAddress!) } == Int64.max)
    }

    /// Formats as libiio reports them are checked before any scan is decoded with them.
    @Test func libiioFormatsAreChecked() {
        func check(_ real: Int, _ storage: Int, shift: Int = 0, repeats: Int = 1) -> IIOScanType? {
            IIOScanType.checked(isBigEndian: false, isSigned: true, realBits: real, storageBits: storage, shift: shift, repeatCount: repeats)
        }
        #expect(check(12, 16, shift: 4) == IIOScanType(parsing: "le:s12/16>>4"))
        #expect(check(64, 64) != nil)
        for (real, storage, shift, repeats) in [(0, 16, 0, 1), (17, 16, 0, 1), (12, 16, 5, 1), (8, 12, 0, 1), (16, 128, 0, 1), (16, 16, -1, 1), (16, 16, 0, 0), (16, 16, 0, 5000)] {
            #expect(check(real, storage, shift: shift, repeats: repeats) == nil, "\(real)/\(storage)>>\(shift)X\(repeats)")
        }
    }

    @Test func encodeThenDecodeRoundTrips() {
        var buf = [UInt8](repeating: 0, count: 8)
        for type in ["le:s16/16>>0", "be:s16/16>>0", "le:s12/16>>4", "be:s24/32>>8", "le:s32/32>>0", "be:s13/16>>0"] {
            let t = IIOScanType(parsing: type)!
            for v in [Int64(0), 1, -1, t.maximumValue, t.minimumValue, 1234 % (t.maximumValue + 1)] {
                let back = buf.withUnsafeMutableBytes { p -> Int64 in
                    t.encode(v, into: p.baseAddress!)
                    return t.decode(UnsafeRawPointer(p.baseAddress!))
                }
                #expect(back == v, "\(type) \(v)")
            }
        }
    }
}

@Suite struct IIOScanLayoutTests {
    @Test func threeShortsAndATimestampMakeSixteenBytes() {
        let s16 = IIOScanType(parsing: "le:s16/16>>0")!, ts = IIOScanType(parsing: "le:s64/64>>0")!
        let l = IIOScanLayout(enabled: [(0, s16), (1, s16), (2, s16), (3, ts)])
        #expect(l.scanBytes == 16)
        #expect(l.elements.map(\.offset) == [0, 2, 4, 8])
    }

    @Test func hmc5883lStoresXZY() {
        // in_magn_x_index 0, z 1, y 2: y sits after z.
        let be = IIOScanType(parsing: "be:s16/16>>0")!
        let l = IIOScanLayout(enabled: [(0, be), (2, be), (1, be)])
        #expect(l.offset(ofIndex: 0) == 0 && l.offset(ofIndex: 1) == 2 && l.offset(ofIndex: 2) == 4)
        #expect(l.scanBytes == 6)
    }

    @Test func mpu9250WithoutTemperature() {
        let be = IIOScanType(parsing: "be:s16/16>>0")!, ts = IIOScanType(parsing: "le:s64/64>>0")!
        let l = IIOScanLayout(enabled: [(0, be), (1, be), (2, be), (4, be), (5, be), (6, be), (7, be), (8, be), (9, be), (10, ts)])
        #expect(l.offset(ofIndex: 4) == 6 && l.offset(ofIndex: 7) == 12 && l.offset(ofIndex: 10) == 24)
        #expect(l.scanBytes == 32)
    }

    @Test func thirtyTwoBitChannelsAlignTheirOwnSize() {
        let s32 = IIOScanType(parsing: "le:s32/32>>0")!, s16 = IIOScanType(parsing: "le:s16/16>>0")!
        let l = IIOScanLayout(enabled: [(0, s16), (1, s32)])
        #expect(l.offset(ofIndex: 1) == 4 && l.scanBytes == 8)
    }
}

@Suite struct IIOTextTests {
    @Test func numbersParseTheKernelFormats() {
        #expect(IIOText.double("0.000146\n") == 0.000146)
        #expect(IIOText.double("0.000009174") == 0.000009174)
        #expect(IIOText.double("-0.500000") == -0.5)
        #expect(IIOText.double("15.000000") == 15)
        #expect(IIOText.double("abc") == nil)
        #expect(IIOText.double("") == nil)
        #expect(IIOText.numberList("0.750000 1.500000 3.0 7.500000 15.0 30.0 75.0\n").map(\.value) == [0.75, 1.5, 3, 7.5, 15, 30, 75])
        #expect(IIOText.numberList("1 2 3").map(\.text) == ["1", "2", "3"])
    }

    @Test func numbersIgnoreTheLocale() throws {
        // Build a comma-decimal locale with localedef, make it this thread's locale, show
        // that strtod then misreads "0.5", and that Lodestone's parsing does not.
        let parent = NSTemporaryDirectory() + "lodestone-locales-\(getpid())"
        let dir = parent + "/de_DE.UTF-8"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["localedef", "-i", "de_DE", "-f", "UTF-8", dir]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        setenv("LOCPATH", parent, 1)
        let german = try #require(newlocale(LC_NUMERIC_MASK, "de_DE.UTF-8", nil), "localedef could not build de_DE (i18n data missing?)")
        let previous = uselocale(german)
        defer { uselocale(previous); freelocale(german) }
        #expect(strtod("0.5", nil) == 0, "the locale is in force: strtod stops at the dot")
        #expect(IIOText.double("0.000146") == 0.000146)
        #expect(IIOText.numberList("0.750000 1.500000").map(\.value) == [0.75, 1.5])
        #expect(IIOMountMatrix.parse("0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1")?[0, 0] == 0.7071)
    }

    @Test func integersWithoutAllocation() {
        func parse(_ s: String) -> Int64? {
            let bytes = Array(s.utf8CString)
            return bytes.withUnsafeBufferPointer { IIOText.integer(bytes: $0.baseAddress!, count: bytes.count - 1) }
        }
        #expect(parse("-2995\n") == -2995)
        #expect(parse("1830") == 1830)
        #expect(parse("+7") == 7)
        #expect(parse("12a") == nil)
        #expect(parse("") == nil)
        #expect(parse("99999999999999999999") == nil)
    }
}

@Suite struct IIOMountMatrixTests {
    @Test func parsesTheAK8963MatrixAndMapsChipToDevice() throws {
        let m = try #require(IIOMountMatrix.parse("0, 1, 0; 1, 0, 0; 0, 0, -1\n"))
        // v_device = M · v_chip: chip x goes to device y, chip z flips.
        #expect(m * Vector3(1, 2, 3) == Vector3(2, 1, -3))
        #expect(IIOMountMatrix.format(m) == "0, 1, 0; 1, 0, 0; 0, 0, -1")
    }

    @Test func rejectsMalformedText() {
        for bad in ["", "1, 0, 0; 0, 1, 0", "1, 0; 0, 1; 0, 0", "a, 0, 0; 0, 1, 0; 0, 0, 1", "1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 0"] {
            #expect(IIOMountMatrix.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func boardRotationParsesDegreesAndMatrices() throws {
        let r90 = try #require(BoardRotation.parse("90"))
        #expect(r90 * Vector3.unitX == Vector3.unitY)
        #expect(BoardRotation.parse("-90") == BoardRotation.parse("270"))
        #expect(BoardRotation.parse("180") == Matrix3(-1, 0, 0, 0, -1, 0, 0, 0, 1))
        let r30 = try #require(BoardRotation.parse("30"))
        #expect(abs((r30 * Vector3.unitX).y - 0.5) < 1e-12)
        #expect(BoardRotation.parse("0, -1, 0; 1, 0, 0; 0, 0, 1") == r90)
        // A reflection or a non-rotation is refused.
        #expect(BoardRotation.parse("1, 0, 0; 0, 1, 0; 0, 0, -1") == nil)
        #expect(BoardRotation.parse("2, 0, 0; 0, 1, 0; 0, 0, 1") == nil)
        #expect(BoardRotation.parse("north") == nil)
    }
}

@Suite struct IIODriverQuirkTests {
    @Test func hmc5883lScaleIsCorrectedAndReported() throws {
        let q = try #require(IIODriverQuirk.quirk(deviceName: "hmc5883l", kind: .magnetometer))
        // 0.000009174 × 100 G/count = 1/1090 G: the datasheet gain.
        #expect(abs(0.000009174 * q.scaleCorrection * 1090 - 1) < 1e-4)
        #expect(q.note.contains("100"))
        #expect(IIODriverQuirk.quirk(deviceName: "lis3mdl", kind: .magnetometer) == nil)
        #expect(IIODriverQuirk.quirk(deviceName: "hmc5883l", kind: .accelerometer) == nil)
    }

    /// Worked by hand: O = 90° about z = [0 −1 0; 1 0 0; 0 0 1], P = [0 1 0; 1 0 0; 0 0 −1].
    /// The driver prints P·O = [1 0 0; 0 −1 0; 0 0 −1]; the AK8963 sits at O·P = [−1 0 0; 0 1 0; 0 0 −1].
    @Test func mpu9250MagnetometerMatrixIsRecomposedForRotatedBoards() {
        let o = Matrix3(0, -1, 0, 1, 0, 0, 0, 0, 1)
        let printed = Matrix3(1, 0, 0, 0, -1, 0, 0, 0, -1)
        let needed = Matrix3(-1, 0, 0, 0, 1, 0, 0, 0, -1)
        #expect(InvensenseMagnetometerMatrix.corrected(deviceName: "mpu9250", printed: printed, accelerometer: o) == needed)
        // A field along the accelerometer chip's +x reads on the AK8963's y: it must come out along O·(+x) = +y.
        #expect(needed * Vector3(0, 1, 0) == o * Vector3(1, 0, 0))
        #expect(printed * Vector3(0, 1, 0) != o * Vector3(1, 0, 0))
        // Nothing to correct: identity board (P·O = O·P), a kernel that prints O·P, another driver, no accelerometer matrix.
        let p = Matrix3(0, 1, 0, 1, 0, 0, 0, 0, -1)
        #expect(InvensenseMagnetometerMatrix.corrected(deviceName: "mpu9250", printed: p, accelerometer: .identity) == nil)
        #expect(InvensenseMagnetometerMatrix.corrected(deviceName: "mpu9250", printed: needed, accelerometer: o) == nil)
        #expect(InvensenseMagnetometerMatrix.corrected(deviceName: "ak8963", printed: printed, accelerometer: o) == nil)
        #expect(InvensenseMagnetometerMatrix.corrected(deviceName: "mpu9250", printed: printed, accelerometer: nil) == nil)
    }
}

@Suite struct HeldSeriesTests {
    @Test func pairsWithTheLatestReadingAtOrBeforeTheTime() {
        var h = HeldSeries(capacity: 4)
        #expect(h.value(at: 100) == nil)
        h.append(time: 50, RawTriple(1, 0, 0))
        h.append(time: 150, RawTriple(2, 0, 0))
        #expect(h.value(at: 40) == nil, "nothing before the first reading")
        #expect(h.value(at: 100) == RawTriple(1, 0, 0))
        #expect(h.value(at: 149) == RawTriple(1, 0, 0))
        #expect(h.value(at: 150) == RawTriple(2, 0, 0))
        #expect(h.value(at: 120) == RawTriple(2, 0, 0), "held, never goes back")
    }

    @Test func overflowKeepsTheNewest() {
        var h = HeldSeries(capacity: 2)
        for t in 1...5 { h.append(time: Int64(t), RawTriple(Int64(t), 0, 0)) }
        #expect(h.value(at: 3) == RawTriple(3, 0, 0))
        #expect(h.value(at: 10) == RawTriple(5, 0, 0))
    }
}

@Suite struct IIOSensorHealthTests {
    @Test func stuckAfterIdenticalRunAndSaturatedAtTheLimit() {
        var h = IIOSensorHealth(kind: .magnetometer)
        var prev: RawTriple? = nil
        for _ in 0..<5 {
            h.observe(RawTriple(10, 20, 30), previous: prev, limit: 2047, overflow: -4096, stuckAfter: 5)
            prev = RawTriple(10, 20, 30)
        }
        #expect(h.isStuck && h.identicalRun == 5)
        h.observe(RawTriple(11, 20, 30), previous: prev, limit: 2047, overflow: -4096, stuckAfter: 5)
        #expect(!h.isStuck && h.identicalRun == 1)
        h.observe(RawTriple(-4096, 0, 0), previous: nil, limit: 2047, overflow: -4096, stuckAfter: 5)
        #expect(h.isSaturated)
        h.observe(RawTriple(0, 2047, 0), previous: nil, limit: 2047, overflow: -4096, stuckAfter: 5)
        #expect(h.isSaturated && h.saturatedSamples == 2)
    }

    @Test func errorsSayWhatToDo() {
        let e = IIOSourceError.sensorNotFound(kind: .magnetometer, uri: "ip:10.0.0.2", lookedFor: IIOSensorKind.magnetometer.rawFiles,
                                              found: ["iio:device0 lis3dh: accel_x, accel_y, accel_z"])
        #expect(e.description.contains("lodestone devices --uri ip:10.0.0.2") && e.description.contains("in_magn_x_raw") && e.description.contains("lis3dh"))
        #expect(!e.isTransient)
        #expect(IIOSourceError.io(uri: "local:", device: "lis3mdl", operation: "reading", errno: EIO).isTransient)
        #expect(IIOSourceError.io(uri: "local:", device: "lis3mdl", operation: "reading", errno: ENODEV).isTransient)
        #expect(!IIOSourceError.permissionDenied(uri: "local:", device: "x", file: "/sys/f").isTransient)
    }
}
