/// At most `capacity` items of a stream of unknown length, evenly spread over it.
///
/// Every item is kept until the buffer fills; then every second one is
/// dropped and from then on only every second item is taken, and so on. So a
/// long log is fitted from a bounded, uniform subsample instead of growing
/// memory without limit.
struct EvenlyThinned<Element> {
    let capacity: Int
    private(set) var items: [Element] = []
    /// Items offered so far.
    private(set) var offered = 0
    private var stride = 1

    init(capacity: Int) {
        self.capacity = max(2, capacity)
    }

    mutating func append(_ item: Element) {
        defer { offered += 1 }
        guard offered % stride == 0 else { return }
        items.append(item)
        if items.count >= capacity {
            items = Swift.stride(from: 0, to: items.count, by: 2).map { items[$0] }
            stride *= 2
        }
    }
}
