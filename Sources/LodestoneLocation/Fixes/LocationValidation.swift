import LodestoneCore

extension Location {
    /// The fix with its position checked and its optional measurements cleaned.
    ///
    /// A bad position refuses the fix; a bad optional measurement (NaN or
    /// infinite, a negative accuracy or speed) only loses that value, which is
    /// then reported as not known, and is named in `discarded`. A finite course
    /// outside [0, 360) is wrapped into it, as receivers differ on 360 and −0.
    public func sanitized() throws(LocationRejection) -> (location: Location, discarded: [LocationField]) {
        guard latitude.isFinite, abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite, abs(longitude) <= 180 else { throw .longitudeOutOfRange(longitude) }
        guard timestamp.isFinite else { throw .timestampNotFinite(timestamp) }
        var clean = self
        var discarded: [LocationField] = []
        func keep(_ field: LocationField, _ value: inout Double?, _ isValid: (Double) -> Bool) {
            if let v = value, !(v.isFinite && isValid(v)) {
                value = nil
                discarded.append(field)
            }
        }
        keep(.altitude, &clean.altitude) { _ in true }
        keep(.ellipsoidalAltitude, &clean.ellipsoidalAltitude) { _ in true }
        keep(.horizontalAccuracy, &clean.horizontalAccuracy) { $0 >= 0 }
        keep(.verticalAccuracy, &clean.verticalAccuracy) { $0 >= 0 }
        keep(.speed, &clean.speed) { $0 >= 0 }
        keep(.speedAccuracy, &clean.speedAccuracy) { $0 >= 0 }
        keep(.course, &clean.course) { _ in true }
        keep(.courseAccuracy, &clean.courseAccuracy) { $0 >= 0 }
        clean.course = clean.course.map { Angle.normalized360($0) + 0 }
        return (clean, discarded)
    }
}
