/// How often a position source reports, learned from the gaps between the
/// reports that changed the speed: the median of the last few, so that a
/// stop's long run of equal reports, or two reports in one epoch, does not
/// move it.
public struct ReportInterval: Hashable, Sendable {
    /// How many recent gaps the median is taken over.
    public static let gapsKept = 5

    /// The typical gap between reports, s; nil until one has been seen.
    public private(set) var typical: Double?

    private var gaps: [Double] = []
    private var next = 0

    public init() {}

    /// Adds the gap between two reports that differed, s.
    public mutating func add(gap: Double) {
        if gaps.count < Self.gapsKept {
            gaps.append(gap)
        } else {
            gaps[next] = gap
            next = (next + 1) % Self.gapsKept
        }
        let sorted = gaps.sorted()
        typical = sorted[(sorted.count - 1) / 2]
    }
}
