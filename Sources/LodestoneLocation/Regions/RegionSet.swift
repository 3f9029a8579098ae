/// The monitored regions with their last known states: what `serve` saves so that
/// monitoring survives a restart (an exit that happened while it was down is then
/// reported with the first fix). JSON form in `RegionSetJSON.swift`.
public struct RegionSet: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var region: CircularRegion
        public var state: RegionState
        /// Fix time at which the current inside stay began (for dwell); nil unless inside.
        public var insideSince: Double?
        /// Whether this stay's dwell was already reported.
        public var dwellReported: Bool

        public init(region: CircularRegion, state: RegionState = .unknown, insideSince: Double? = nil, dwellReported: Bool = false) {
            self.region = region
            self.state = state
            self.insideSince = state == .inside ? insideSince : nil
            self.dwellReported = state == .inside && dwellReported
        }
    }

    /// The format written by ``jsonBytes()``; readers refuse other versions.
    public static let formatVersion = 1

    public var entries: [Entry]

    public init(entries: [Entry] = []) {
        self.entries = entries
    }
}
