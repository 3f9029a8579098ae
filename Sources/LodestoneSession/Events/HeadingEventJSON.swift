import LodestoneCore
import LodestoneJSON

extension JSONLineBuilder {
    /// Appends an event as an NDJSON line of the heading stream: an object with
    /// an `event` key, so a consumer tells events from headings by that key.
    /// `wallClock` (Unix seconds) adds an ISO 8601 `time`.
    public func appendEvent(_ e: HeadingEvent, wallClock: Double? = nil) {
        beginObject()
        string("event", e.name.rawValue)
        if let state = e.state { string("state", state.rawValue) }
        string("reason", e.reason.rawValue)
        string("detail", e.detail)
        if e.name == .sensorHealth { stringArray("flags", e.flags) }
        if let t = e.timestamp { number("timestamp", t, decimals: 6) }
        if let wallClock { string("time", WallClockTime.iso8601(unixSeconds: wallClock)) }
        endObject()
    }

    private func stringArray(_ key: StaticString, _ values: [String]) {
        let list = JSONLineBuilder(capacity: 256)
        list.append(.array(values.map { .string($0) }))
        raw(key, list.text)
    }
}
