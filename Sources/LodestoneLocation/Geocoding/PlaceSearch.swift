/// Forward geocoding: places whose name starts with what was typed, case- and
/// accent-insensitive ("zur" finds Zürich, "sao p" São Paulo), biggest first.
///
/// Built once from a table: every name's search key (``PlaceSearchKey``) in one
/// sorted list, so a prefix is a binary search and a scan of the matches.
public struct PlaceSearch: Sendable {
    public let table: PlaceTable
    /// Folded names, back to back; `keyRanges` in sorted key order.
    private let keyBytes: [UInt8]
    private let sorted: [(start: Int32, length: Int32, place: Int32)]

    public init(table: PlaceTable) {
        self.table = table
        var bytes: [UInt8] = []
        bytes.reserveCapacity(table.text.count / 3)
        var entries: [(start: Int32, length: Int32, place: Int32)] = []
        entries.reserveCapacity(table.count)
        for i in 0..<table.count {
            let key = PlaceSearchKey.fold(table.name(of: i), using: table.folds)
            entries.append((Int32(bytes.count), Int32(key.count), Int32(i)))
            bytes += key
        }
        keyBytes = bytes
        sorted = bytes.withUnsafeBufferPointer { b in
            entries.sorted { Self.compare(b, $0, $1) }
        }
    }

    /// Up to `limit` places whose name starts with `prefix` (folded), optionally only in
    /// the country `isoCountryCode`: exact name matches first, then by population.
    public func places(matching prefix: String, isoCountryCode: String? = nil, limit: Int = 10) -> [Place] {
        let key = PlaceSearchKey.fold(prefix, using: table.folds)
        guard !key.isEmpty, limit > 0 else { return [] }
        let matches = keyBytes.withUnsafeBufferPointer { b in
            sorted[range(of: key, in: b)].filter { isoCountryCode == nil || table.countryCode(of: Int($0.place)) == isoCountryCode }
        }
        let ranked = matches.sorted { a, b in
            let exactA = a.length == key.count, exactB = b.length == key.count
            if exactA != exactB { return exactA }
            let pa = table.records[Int(a.place)].population, pb = table.records[Int(b.place)].population
            return pa != pb ? pa > pb : a.place < b.place
        }
        return ranked.prefix(limit).map { table.place(at: Int($0.place)) }
    }

    /// The entries whose key starts with `key`: a contiguous run of the sorted list.
    private func range(of key: [UInt8], in b: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        func firstIndex(where isAfter: ((start: Int32, length: Int32, place: Int32)) -> Bool) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) >> 1
                if isAfter(sorted[mid]) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        // Keys ≥ prefix start the run; keys past every extension of it end the run.
        let start = firstIndex { !Self.less(b, $0, key) }
        let end = firstIndex { !Self.less(b, $0, key) && !Self.hasPrefix(b, $0, key) }
        return start..<max(start, end)
    }

    private static func bytes(_ b: UnsafeBufferPointer<UInt8>, _ e: (start: Int32, length: Int32, place: Int32)) -> Slice<UnsafeBufferPointer<UInt8>> {
        b[Int(e.start)..<Int(e.start + e.length)]
    }

    private static func compare(_ b: UnsafeBufferPointer<UInt8>, _ l: (start: Int32, length: Int32, place: Int32),
                                _ r: (start: Int32, length: Int32, place: Int32)) -> Bool {
        let lb = bytes(b, l), rb = bytes(b, r)
        return lb.lexicographicallyPrecedes(rb) || (lb.elementsEqual(rb) && l.place < r.place)
    }

    private static func less(_ b: UnsafeBufferPointer<UInt8>, _ e: (start: Int32, length: Int32, place: Int32), _ key: [UInt8]) -> Bool {
        bytes(b, e).lexicographicallyPrecedes(key)
    }

    private static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, _ e: (start: Int32, length: Int32, place: Int32), _ key: [UInt8]) -> Bool {
        bytes(b, e).starts(with: key)
    }
}
