import LodestoneCore

/// The one JSON writer of the package: builds JSON into a reusable byte buffer, fast.
///
/// Streams (NDJSON headings, the service's protocol lines) are built member by
/// member, one object per line, with numbers written to a fixed number of
/// decimals (rounded half away from zero), which keeps output stable and avoids
/// allocating a `String` per value. Documents (calibration profiles, log
/// metadata) are written whole from a ``JSONValue`` with ``append(_:pretty:)``,
/// numbers in shortest round-trip form so that they read back bit-exact.
/// Non-finite numbers become `null`. Bytes go straight into raw storage that
/// grows when needed, so a line costs no allocation.
public final class JSONLineBuilder {
    // Touched for every byte: dynamic exclusivity checks would dominate. Usable from
    // inlinable code so that a caller's members are written in place: a key's length and
    // a number's decimals are then constants, the copy of a key a few moves, not a call.
    @usableFromInline @exclusivity(unchecked) var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    @usableFromInline @exclusivity(unchecked) var used = 0
    @usableFromInline @exclusivity(unchecked) var needsComma = false

    /// Bytes written so far.
    public var count: Int { used }

    /// The storage is initialised (and so is any that replaces it) because the fixed-size
    /// copy of a number reads past its digits into room that nothing has written yet.
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 1024)
        storage = .allocate(capacity: self.capacity)
        storage.initialize(repeating: 0, count: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes written so far; valid until the next write.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: used) }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func removeAll() {
        used = 0
    }

    /// Makes room for `n` more bytes.
    @inlinable @inline(__always)
    func reserve(_ n: Int) {
        if used + n > capacity { grow(used + n) }
    }

    @usableFromInline
    func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.initialize(repeating: 0, count: newCapacity)
        bigger.update(from: storage, count: used)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    func put(_ byte: UInt8) {
        reserve(1)
        storage[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    func put(_ buffer: UnsafeRawBufferPointer) {
        guard let source = buffer.baseAddress, !buffer.isEmpty else { return }
        reserve(buffer.count)
        UnsafeMutableRawPointer(storage + used).copyMemory(from: source, byteCount: buffer.count)
        used += buffer.count
    }

    @inlinable @inline(__always)
    func put(_ s: StaticString) {
        s.withUTF8Buffer { put(UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    public func beginObject() {
        put(0x7B)
        needsComma = false
    }

    /// Closes the object and ends the line.
    @inlinable
    public func endObject() {
        reserve(2)
        storage[used] = 0x7D
        storage[used + 1] = 0x0A
        used += 2
    }

    /// Closes the object and ends the line with CR LF, as gpsd does (its Python client
    /// reads only lines that end so).
    public func endObjectCRLF() {
        put(0x7D)
        put(0x0D)
        put(0x0A)
    }

    /// `"name":`, after a comma unless it is the object's first member. Written through a
    /// local pointer: a byte stored through the buffer might otherwise be the builder's
    /// own count, which would be read again after every byte.
    @inlinable @inline(__always)
    func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        var p = storage + used
        if needsComma {
            p.pointee = 0x2C
            p += 1
        }
        needsComma = true
        p.pointee = 0x22
        UnsafeMutableRawPointer(p + 1).copyMemory(from: name.utf8Start, byteCount: length)
        p += 1 + length
        p[0] = 0x22
        p[1] = 0x3A
        used = p + 2 - storage
    }

    @inlinable @inline(__always)
    public func number(_ name: StaticString, _ value: Double, decimals: Int) {
        key(name)
        appendNumber(value, decimals: decimals)
    }

    @inlinable @inline(__always)
    public func number(_ name: StaticString, _ value: Double?, decimals: Int) {
        key(name)
        if let value { appendNumber(value, decimals: decimals) } else { put("null") }
    }

    public func integer(_ name: StaticString, _ value: Int) {
        key(name)
        var s = String(value)
        s.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    public func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        put(value ? "true" : "false")
    }

    public func string(_ name: StaticString, _ value: String?) {
        key(name)
        guard let value else { return put("null") }
        appendString(value)
    }

    public func numbers(_ name: StaticString, _ values: [Double], decimals: Int) {
        key(name)
        put(0x5B)
        for (i, v) in values.enumerated() {
            if i > 0 { put(0x2C) }
            appendNumber(v, decimals: decimals)
        }
        put(0x5D)
    }

    /// A four-number array, without allocating one.
    @inlinable @inline(__always)
    public func quaternion(_ name: StaticString, _ a: Double, _ b: Double, _ c: Double, _ d: Double, decimals: Int) {
        key(name)
        put(0x5B)
        appendNumber(a, decimals: decimals)
        put(0x2C)
        appendNumber(b, decimals: decimals)
        put(0x2C)
        appendNumber(c, decimals: decimals)
        put(0x2C)
        appendNumber(d, decimals: decimals)
        put(0x5D)
    }

    /// Appends pre-encoded JSON as the value of `name`.
    public func raw(_ name: StaticString, _ json: String) {
        key(name)
        var s = json
        s.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a string value that needs no escaping (printable ASCII without
    /// `"` or `\\`), straight from bytes: no `String` is made.
    public func plainString(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) {
        key(name)
        put(0x22)
        put(bytes)
        put(0x22)
    }

    private func appendString(_ s: String) {
        put(0x22)
        for u in s.utf8 {
            switch u {
            case 0x22: put("\\\"")
            case 0x5C: put("\\\\")
            case 0x0A: put("\\n")
            case 0x0D: put("\\r")
            case 0x09: put("\\t")
            case 0x08: put("\\b")
            case 0x0C: put("\\f")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                put("\\u00")
                hex.withUTF8Buffer { h in
                    put(h[Int(u >> 4)])
                    put(h[Int(u & 15)])
                }
            default: put(u)
            }
        }
        put(0x22)
    }

    /// Appends `value` with `decimals` digits after the point (0…9). Inlined where
    /// `decimals` is a constant, so that the scaling and the digit loop are specialised for it.
    @inlinable @inline(__always)
    public func appendNumber(_ value: Double, decimals: Int) {
        guard value.isFinite else { return put("null") }
        let d = max(0, min(9, decimals))
        let magnitude = abs(value) * ExactDecimal.powerOfTen(d)
        guard magnitude < ExactDecimal.wholeLimit else { return appendLargeNumber(value) }
        let n = ExactDecimal.wholeHalfAwayFromZero(magnitude)
        // Right to left ending `scratchSize` bytes ahead, then moved back in one overlapping
        // copy of a fixed size (a few vector moves, no call): the length need not be known
        // before the digits are.
        reserve(2 * FixedPointDigits.scratchSize)
        let target = storage + used
        let end = target + FixedPointDigits.scratchSize
        var first = FixedPointDigits.write(n, fractionDigits: d, endingAt: end)
        // A value that rounds to zero prints without its sign.
        if value < 0, n != 0 {
            first -= 1
            first.pointee = 0x2D
        }
        UnsafeMutableRawPointer(target).copyMemory(from: first, byteCount: FixedPointDigits.scratchSize)
        used += end - first
    }

    /// A number too large for fixed point, as Swift prints it: rare, so kept out of line.
    @usableFromInline
    func appendLargeNumber(_ value: Double) {
        var s = "\(value)"
        s.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    // MARK: Documents

    /// Appends `value` as JSON text: object keys sorted by code point (stable
    /// output for diffs), numbers in shortest round-trip form (``appendShortestNumber(_:)``).
    /// Compact by default; `pretty` puts each member and element on its own line,
    /// indented two spaces per level, as `"key" : value` (the layout of
    /// Foundation's `JSONEncoder` with `.prettyPrinted`, which wrote the files before).
    /// No newline is added at the end.
    public func append(_ value: JSONValue, pretty: Bool = false) {
        append(value, level: pretty ? 0 : nil)
    }

    private func append(_ value: JSONValue, level: Int?) {
        switch value {
        case .null: put("null")
        case .bool(let b): put(b ? "true" : "false")
        case .number(let n): appendShortestNumber(n)
        case .string(let s): appendString(s)
        case .array(let items):
            put(0x5B)
            for (i, item) in items.enumerated() {
                separate(first: i == 0, level: level)
                append(item, level: level.map { $0 + 1 })
            }
            close(0x5D, empty: items.isEmpty, level: level)
        case .object(let members):
            put(0x7B)
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                separate(first: i == 0, level: level)
                appendString(key)
                if level != nil { put(" : ") } else { put(0x3A) }
                append(members[key]!, level: level.map { $0 + 1 })
            }
            close(0x7D, empty: keys.isEmpty, level: level)
        }
    }

    /// Before a member or element: a comma after the first, and when pretty a new, indented line.
    private func separate(first: Bool, level: Int?) {
        if !first { put(0x2C) }
        guard let level else { return }
        put(0x0A)
        indent(level + 1)
    }

    private func close(_ bracket: UInt8, empty: Bool, level: Int?) {
        if let level {
            put(0x0A)
            if empty { put(0x0A) }
            indent(level)
        }
        put(bracket)
    }

    private func indent(_ level: Int) {
        for _ in 0..<level { put("  ") }
    }

    /// Appends `value` in the shortest form that reads back as the same `Double`
    /// (Swift's `description`), without a trailing `.0`: `83`, `0.1`, `1e-05`, `-0`.
    public func appendShortestNumber(_ value: Double) {
        guard value.isFinite else { return put("null") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }
}
