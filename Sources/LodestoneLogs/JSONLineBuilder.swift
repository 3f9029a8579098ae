/// Builds one JSON object per line into a reusable byte buffer, fast.
///
/// Numbers are written with a fixed number of decimals (rounded half away
/// from zero), which keeps output stable and avoids allocating a `String` per
/// value; non-finite numbers become `null`.
public struct JSONLineBuilder: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() {
        bytes.append(0x7B)
        needsComma = false
    }

    /// Closes the object and ends the line.
    public mutating func endObject() {
        bytes.append(0x7D)
        bytes.append(0x0A)
    }

    private mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(0x2C) }
        needsComma = true
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    public mutating func number(_ name: StaticString, _ value: Double, decimals: Int) {
        key(name)
        appendNumber(value, decimals: decimals)
    }

    public mutating func number(_ name: StaticString, _ value: Double?, decimals: Int) {
        key(name)
        if let value { appendNumber(value, decimals: decimals) } else { appendNull() }
    }

    public mutating func integer(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func string(_ name: StaticString, _ value: String?) {
        key(name)
        guard let value else { return appendNull() }
        appendString(value)
    }

    public mutating func numbers(_ name: StaticString, _ values: [Double], decimals: Int) {
        key(name)
        bytes.append(0x5B)
        for (i, v) in values.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            appendNumber(v, decimals: decimals)
        }
        bytes.append(0x5D)
    }

    /// Appends pre-encoded JSON as the value of `name`.
    public mutating func raw(_ name: StaticString, _ json: String) {
        key(name)
        bytes.append(contentsOf: json.utf8)
    }

    private mutating func appendNull() {
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    private mutating func appendString(_ s: String) {
        bytes.append(0x22)
        for u in s.utf8 {
            switch u {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(u >> 4)], hex[Int(u & 15)]])
            default: bytes.append(u)
            }
        }
        bytes.append(0x22)
    }

    private static let scales: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// Appends `value` with `decimals` digits after the point (0…9).
    public mutating func appendNumber(_ value: Double, decimals: Int) {
        guard value.isFinite else { return appendNull() }
        let d = max(0, min(9, decimals))
        let scaled = (abs(value) * Self.scales[d]).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else {
            bytes.append(contentsOf: "\(value)".utf8)
            return
        }
        var n = UInt64(scaled)
        if value < 0, n != 0 { bytes.append(0x2D) }
        // Digits, least significant first, into a fixed stack buffer.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            var count = 0
            repeat {
                raw[count] = UInt8(truncatingIfNeeded: n % 10) &+ 0x30
                n /= 10
                count += 1
            } while n > 0 || count <= d
            for i in stride(from: count - 1, through: 0, by: -1) {
                bytes.append(raw[i])
                if i == d, d > 0 { bytes.append(0x2E) }
            }
        }
    }
}
