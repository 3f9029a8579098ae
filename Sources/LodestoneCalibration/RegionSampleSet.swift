import LodestoneCore

/// Field readings kept spread over the sphere of directions, in bounded memory:
/// the sample store of live calibration (`MagnetometerCalibrator`) and of
/// online hard-iron tracking (`HardIronTracker`).
///
/// One bucket per coverage region (`EqualAreaSphere`), at most
/// `samplesPerRegion` each. A reading closer than `minimumSeparation` to one
/// already kept in its region is skipped (a device lying still adds nothing
/// new), and a full region drops its oldest reading, so the set stays spread
/// over the sphere and follows a changed environment. The caller says which
/// direction a reading has (raw field minus a centre, or corrected), since
/// that depends on the calibration it currently trusts.
public struct RegionSampleSet: Sendable {
    public struct Sample: Hashable, Sendable {
        /// The raw reading.
        public var field: Vector3
        /// When it was taken (the caller's clock; seconds).
        public var time: Double
        /// Order of arrival, for "oldest first".
        var order: Int
    }

    public let samplesPerRegion: Int
    /// In the readings' units (µT).
    public let minimumSeparation: Double

    private var buckets: [[Sample]]
    private var nextOrder = 0

    public init(samplesPerRegion: Int, minimumSeparation: Double) {
        self.samplesPerRegion = max(samplesPerRegion, 1)
        self.minimumSeparation = minimumSeparation
        buckets = Array(repeating: [], count: EqualAreaSphere.regionCount)
    }

    /// Samples kept, oldest first.
    public var samples: [Sample] {
        buckets.flatMap { $0 }.sorted { $0.order < $1.order }
    }

    public var count: Int { buckets.reduce(0) { $0 + $1.count } }

    /// Keeps `field` in the region of `direction` unless a kept reading there is
    /// within `minimumSeparation`. Returns true when it was kept; false also for
    /// a zero or non-finite direction.
    @discardableResult
    public mutating func add(_ field: Vector3, direction: Vector3, time: Double = 0) -> Bool {
        guard let region = EqualAreaSphere.region(of: direction) else { return false }
        let limit = minimumSeparation * minimumSeparation
        if buckets[region].contains(where: { ($0.field - field).squaredLength < limit }) { return false }
        if buckets[region].count >= samplesPerRegion { buckets[region].removeFirst() }
        buckets[region].append(Sample(field: field, time: time, order: nextOrder))
        nextOrder += 1
        return true
    }

    /// Sorts every kept reading again by `direction` (after the centre moved).
    /// A region that receives more than `samplesPerRegion` keeps the newest.
    public mutating func rebin(_ direction: (Vector3) -> Vector3) {
        let all = samples
        buckets = Array(repeating: [], count: EqualAreaSphere.regionCount)
        for s in all {
            guard let region = EqualAreaSphere.region(of: direction(s.field)) else { continue }
            if buckets[region].count >= samplesPerRegion { buckets[region].removeFirst() }
            buckets[region].append(s)
        }
    }

    /// Forgets readings taken before `time`.
    public mutating func removeSamples(before time: Double) {
        for i in buckets.indices where buckets[i].contains(where: { $0.time < time }) {
            buckets[i].removeAll { $0.time < time }
        }
    }

    public mutating func removeAll() {
        buckets = Array(repeating: [], count: EqualAreaSphere.regionCount)
    }

    /// Coverage of the kept readings' directions.
    public func coverage(_ direction: (Vector3) -> Vector3) -> SphereCoverage {
        var c = SphereCoverage()
        for bucket in buckets { for s in bucket { c.add(direction(s.field)) } }
        return c
    }
}
