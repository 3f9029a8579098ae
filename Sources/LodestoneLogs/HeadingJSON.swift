import LodestoneCore
import LodestoneJSON

extension JSONLineBuilder {
    /// Appends one heading as an NDJSON line with CLHeading's field names.
    ///
    /// `wallClockStart` (Unix seconds of `timestamp` 0) adds an ISO 8601 `time`.
    public func appendHeading(_ h: Heading, wallClockStart: Double? = nil) {
        beginObject()
        number("timestamp", h.timestamp, decimals: 6)
        if let start = wallClockStart {
            string("time", WallClockTime.iso8601(unixSeconds: start + h.timestamp))
        }
        number("magneticHeading", h.magneticHeading, decimals: 3)
        number("trueHeading", h.trueHeading, decimals: 3)
        number("headingAccuracy", h.headingAccuracy, decimals: 2)
        if let d = h.declination {
            number("declination", d.degrees, decimals: 3)
        }
        number("x", h.x, decimals: 3)
        number("y", h.y, decimals: 3)
        number("z", h.z, decimals: 3)
        let q = h.attitude
        quaternion("attitude", q.w, q.x, q.y, q.z, decimals: 6)
        endObject()
    }
}

extension JSONLineBuilder {
    /// Appends an event line: an object with an `event` key, so a consumer of
    /// the heading stream tells events from headings by that key. `reason` is
    /// a short code, `detail` a sentence for people.
    public func appendEvent(_ event: String, reason: String? = nil, detail: String? = nil, state: String? = nil,
                            timestamp: Double? = nil) {
        beginObject()
        string("event", event)
        if let state { string("state", state) }
        if let reason { string("reason", reason) }
        if let detail { string("detail", detail) }
        if let timestamp { number("timestamp", timestamp, decimals: 6) }
        endObject()
    }

    /// Appends a magnetic event from the pipeline.
    public func appendEvent(_ event: MagneticEvent, timestamp: Double) {
        switch event {
        case .calibrationNeeded(let reason, let detail):
            appendEvent("calibrationNeeded", reason: reason.rawValue, detail: detail, timestamp: timestamp)
        case .disturbanceStarted(let reason, let detail):
            appendEvent("magneticDisturbance", reason: reason.rawValue, detail: detail, state: "start", timestamp: timestamp)
        case .disturbanceEnded(let detail):
            appendEvent("magneticDisturbance", detail: detail, state: "end", timestamp: timestamp)
        }
    }
}
