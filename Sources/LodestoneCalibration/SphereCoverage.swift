import LodestoneCore

/// Which of the 100 equal-area regions (`EqualAreaSphere`) hold sample directions.
///
/// A region counts as covered with at least one sample in it, as in MotionCal.
/// Directions should be taken from the field's centre (corrected field, or raw
/// field minus a rough offset); otherwise the map says nothing.
public struct SphereCoverage: Hashable, Sendable {
    /// Samples per region, indexed like `EqualAreaSphere`.
    public private(set) var counts: [Int]

    public init() {
        counts = [Int](repeating: 0, count: EqualAreaSphere.regionCount)
    }

    /// Coverage of the directions of `vectors` (zero vectors are ignored).
    public init(directions vectors: [Vector3]) {
        self.init()
        for v in vectors { add(v) }
    }

    public mutating func add(_ direction: Vector3) {
        if let r = EqualAreaSphere.region(of: direction) { counts[r] += 1 }
    }

    public var filledRegions: Int { counts.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }

    /// Share of the sphere's area that holds samples, 0–100 %.
    public var coveragePercent: Double { Double(filledRegions) * 100 / Double(EqualAreaSphere.regionCount) }

    /// Indices of the empty regions.
    public var gaps: [Int] { counts.indices.filter { counts[$0] == 0 } }

    /// The direction (unit vector, sensor frame) around which most regions are
    /// empty: where the user should point the sensor next. Nil when nothing is missing.
    ///
    /// Scored by the number of empty regions within 45° of each empty region's centre.
    public var largestGapDirection: Vector3? {
        let empty = gaps
        guard !empty.isEmpty else { return nil }
        let centres = empty.map(EqualAreaSphere.centre(of:))
        let cosLimit = 0.7071
        var best = 0, bestScore = -1
        for (i, c) in centres.enumerated() {
            let score = centres.reduce(0) { $0 + (c.dot($1) >= cosLimit ? 1 : 0) }
            if score > bestScore {
                best = i
                bestScore = score
            }
        }
        return centres[best]
    }
}
