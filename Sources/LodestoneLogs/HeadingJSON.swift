import LodestoneCore
import LodestoneJSON

extension JSONLineBuilder {
    /// Appends one heading as an NDJSON line with CLHeading's field names.
    ///
    /// `wallClockStart` (Unix seconds of `timestamp` 0) adds an ISO 8601 `time`.
    /// `declination` is written when a position is in use (`withDeclination`) or the
    /// heading has one: null where it is unknown or unreliable, as `trueHeading`.
    ///
    /// The members are written in groups of a few, each group one function: the
    /// writer's members are inlined into them (constant keys and decimals), which the
    /// optimizer stops doing in a single function that writes them all.
    public func appendHeading(_ h: Heading, wallClockStart: Double? = nil, withDeclination: Bool = false) {
        beginObject()
        number("timestamp", h.timestamp, decimals: 6)
        if let start = wallClockStart {
            string("time", WallClockTime.iso8601(unixSeconds: start + h.timestamp))
        }
        appendDirections(h)
        appendAccuracy(h, withDeclination: withDeclination)
        appendField(h)
        appendAttitude(h.attitude)
        endObject()
    }

    private func appendDirections(_ h: Heading) {
        bearing("magneticHeading", h.magneticHeading, decimals: 3)
        bearing("trueHeading", h.trueHeading, decimals: 3)
    }

    private func appendAccuracy(_ h: Heading, withDeclination: Bool) {
        number("headingAccuracy", h.headingAccuracy, decimals: 2)
        if withDeclination || h.declination != nil {
            number("declination", h.reportedDeclination, decimals: 3)
        }
    }

    private func appendField(_ h: Heading) {
        number("x", h.x, decimals: 3)
        number("y", h.y, decimals: 3)
        number("z", h.z, decimals: 3)
    }

    private func appendAttitude(_ q: Quaternion) {
        quaternion("attitude", q.w, q.x, q.y, q.z, decimals: 6)
    }
}
