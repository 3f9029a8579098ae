import FuzzSupport
import LodestoneIIO

// IIO sysfs text and buffer data: the input is lines of text (scan-element types,
// then a mount matrix and numbers as sysfs prints them), a NUL, then raw scans.
// The scans are decoded with the layout of the parsed types, as the kernel lays
// them out; the first bytes also make a format as libiio reports one.
runFuzzer { bytes in
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<split]), as: UTF8.self)
    let scans = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[min(split + 1, bytes.count)...])
    var channels: [(index: Int, type: IIOScanType)] = []
    for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if let type = IIOScanType(parsing: line) {
            precondition(IIOScanType(parsing: type.description) == type, "a scan type does not read back from its own text")
            channels.append((n, type))
        }
        _ = IIOMountMatrix.parse(line)
        _ = IIOText.double(line)
        _ = IIOText.integer(line)
        _ = IIOText.numberList(line)
        var copy = String(line)
        copy.withUTF8 { b in
            b.withMemoryRebound(to: CChar.self) { c in _ = IIOText.integer(bytes: c.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: c.count) }
        }
    }
    if bytes.count >= 6 {
        let f = Array(bytes.prefix(6))
        if let type = IIOScanType.checked(isBigEndian: f[0] & 1 == 1, isSigned: f[0] & 2 == 2, realBits: Int(f[1]), storageBits: Int(f[2]),
                                          shift: Int(f[3]), repeatCount: Int(f[4]) * 256 + Int(f[5])) {
            channels.append((channels.count, type))
        }
    }
    guard !channels.isEmpty else { return }
    let layout = IIOScanLayout(enabled: channels)
    precondition(layout.scanBytes > 0, "a scan of no bytes")
    var offset = 0
    while offset + layout.scanBytes <= scans.count {
        for e in layout.elements {
            precondition(e.offset + e.type.byteCount <= layout.scanBytes, "an element outside its scan")
            let v = e.type.decode(scans.baseAddress! + offset + e.offset)
            precondition(v >= e.type.minimumValue && v <= e.type.maximumValue, "a decoded value outside the type's range")
        }
        offset += layout.scanBytes
    }
}
