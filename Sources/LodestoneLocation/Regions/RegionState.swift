/// Where the device is relative to a region (`CLRegionState`). Raw values are the
/// names used in JSON.
public enum RegionState: String, Sendable, Equatable, CaseIterable {
    /// No fix has decided it yet.
    case unknown
    case inside
    case outside
}
