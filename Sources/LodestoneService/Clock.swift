import LodestoneNetwork

/// The service's clock: monotonic for deadlines, wall for the `time` of its objects.
typealias Clock = SystemTime
