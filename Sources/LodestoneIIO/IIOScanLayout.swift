/// Byte offsets of the enabled channels in one scan of `/dev/iio:deviceN`.
///
/// The kernel lays enabled channels out in ascending scan-index order, each
/// aligned to its own size, and pads the scan to its largest element
/// (so 3×s16 + s64 timestamp is 16 bytes). The simulator encodes with this and
/// the source cross-checks it against libiio's own offsets.
public struct IIOScanLayout: Hashable, Sendable {
    public struct Element: Hashable, Sendable {
        public var index: Int
        public var type: IIOScanType
        public var offset: Int
    }

    /// Elements in scan-index order.
    public private(set) var elements: [Element]
    /// Bytes per scan, padding included.
    public private(set) var scanBytes: Int

    /// Layout of the enabled channels given as (scan index, type).
    public init(enabled channels: [(index: Int, type: IIOScanType)]) {
        var offset = 0, largest = 1
        var out: [Element] = []
        for ch in channels.sorted(by: { $0.index < $1.index }) {
            let length = ch.type.byteCount
            if length > 0, offset % length != 0 { offset += length - offset % length }
            out.append(Element(index: ch.index, type: ch.type, offset: offset))
            offset += length
            largest = max(largest, length)
        }
        if offset % largest != 0 { offset += largest - offset % largest }
        elements = out
        scanBytes = offset
    }

    /// The byte offset of the channel with scan index `index`, if enabled.
    public func offset(ofIndex index: Int) -> Int? {
        elements.first { $0.index == index }?.offset
    }
}
