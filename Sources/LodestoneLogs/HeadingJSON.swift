import LodestoneCore
import LodestoneJSON

extension JSONLineBuilder {
    /// Appends one heading as an NDJSON line with CLHeading's field names.
    ///
    /// `wallClockStart` (Unix seconds of `timestamp` 0) adds an ISO 8601 `time`.
    /// `declination` is written when a position is in use (`withDeclination`) or the
    /// heading has one: null where it is unknown or unreliable, as `trueHeading`.
    public func appendHeading(_ h: Heading, wallClockStart: Double? = nil, withDeclination: Bool = false) {
        beginObject()
        number("timestamp", h.timestamp, decimals: 6)
        if let start = wallClockStart {
            string("time", WallClockTime.iso8601(unixSeconds: start + h.timestamp))
        }
        number("magneticHeading", Angle.rounded360(h.magneticHeading, decimals: 3), decimals: 3)
        number("trueHeading", h.trueHeading.map { Angle.rounded360($0, decimals: 3) }, decimals: 3)
        number("headingAccuracy", h.headingAccuracy, decimals: 2)
        if withDeclination || h.declination != nil {
            number("declination", h.reportedDeclination, decimals: 3)
        }
        number("x", h.x, decimals: 3)
        number("y", h.y, decimals: 3)
        number("z", h.z, decimals: 3)
        let q = h.attitude
        quaternion("attitude", q.w, q.x, q.y, q.z, decimals: 6)
        endObject()
    }
}
