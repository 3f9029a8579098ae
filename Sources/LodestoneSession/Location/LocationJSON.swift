import LodestoneCore
import LodestoneJSON
import LodestoneLocation
import LodestoneSteering

/// The location objects, one JSON line each, the same for `lodestone locate`'s
/// NDJSON and `serve`'s protocol (PROTOCOL.md): `LOCATION`, `REGION`, `EVENT`.
/// Unknown values are null, never guessed; coordinates have nine decimals
/// (0.1 mm), as GPX export, so distances agree to well under a millimetre.
extension JSONLineBuilder {
    /// `{"class":"LOCATION","time":FIX TIME,"lat":…,"lon":…,…}`, with the nearest `place` when given.
    public func appendLocation(_ fix: Location, place: PlaceMatch? = nil) {
        beginObject()
        string("class", "LOCATION")
        string("time", WallClockTime.iso8601(unixSeconds: fix.timestamp, fractionDigits: 3))
        number("lat", fix.latitude, decimals: 9)
        number("lon", fix.longitude, decimals: 9)
        number("altitude", fix.altitude, decimals: 3)
        number("ellipsoidalAltitude", fix.ellipsoidalAltitude, decimals: 3)
        number("horizontalAccuracy", fix.horizontalAccuracy, decimals: 3)
        number("verticalAccuracy", fix.verticalAccuracy, decimals: 3)
        number("speed", fix.speed, decimals: 3)
        number("speedAccuracy", fix.speedAccuracy, decimals: 3)
        number("course", fix.course.map { BearingRounding.rounded($0, decimals: 2) }, decimals: 2)
        number("courseAccuracy", fix.courseAccuracy, decimals: 2)
        if let place { raw("place", Self.placeText(place)) }
        endObject()
    }

    /// `{"name":…,"isoCountryCode":…,"country":…,"administrativeArea":…,"subAdministrativeArea":…,
    /// "lat":…,"lon":…,"population":…}`, with `distance` and `bearing` from a position asked about when given.
    public func appendPlace(_ place: Place, distance: Double? = nil, bearing: Double? = nil) {
        beginObject()
        string("name", place.name)
        string("isoCountryCode", place.isoCountryCode)
        string("country", place.country)
        string("administrativeArea", place.administrativeArea)
        string("subAdministrativeArea", place.subAdministrativeArea)
        number("lat", place.coordinate.latitude, decimals: 5)
        number("lon", place.coordinate.longitude, decimals: 5)
        integer("population", place.population)
        if let distance { number("distance", distance, decimals: 1) }
        if let bearing { number("bearing", BearingRounding.rounded(bearing, decimals: 1), decimals: 1) }
        endObject()
    }

    public static func placeText(_ match: PlaceMatch) -> String {
        let j = JSONLineBuilder(capacity: 512)
        j.appendPlace(match.place, distance: match.distance, bearing: match.bearing)
        return String(j.text.dropLast())
    }

    /// `{"class":"REGION","event":"entered"|"exited"|"dwelled"|"determinedState","identifier":…,…}`.
    public func appendRegionEvent(_ event: RegionEvent) {
        beginObject()
        string("class", "REGION")
        switch event {
        case let .entered(id, time, distance), let .exited(id, time, distance):
            string("event", Self.regionEventName(event))
            string("identifier", id)
            string("time", WallClockTime.iso8601(unixSeconds: time, fractionDigits: 3))
            number("distance", distance, decimals: 2)
        case let .dwelled(id, time, duration):
            string("event", "dwelled")
            string("identifier", id)
            string("time", WallClockTime.iso8601(unixSeconds: time, fractionDigits: 3))
            number("duration", duration, decimals: 3)
        case let .determinedState(id, state):
            string("event", "determinedState")
            string("identifier", id)
            string("state", state.rawValue)
        }
        endObject()
    }

    static func regionEventName(_ event: RegionEvent) -> String {
        switch event {
        case .entered: return "entered"
        case .exited: return "exited"
        case .dwelled: return "dwelled"
        case .determinedState: return "determinedState"
        }
    }

    /// `{"class":"REGIONS","regions":[{"identifier":…,"lat":…,"lon":…,"radius":…,…,"state":…}]}`.
    public func appendRegions(_ regions: RegionSet) {
        beginObject()
        string("class", "REGIONS")
        var list = "["
        for (n, e) in regions.entries.enumerated() {
            let item = JSONLineBuilder(capacity: 512)
            item.beginObject()
            item.string("identifier", e.region.identifier)
            item.number("lat", e.region.center.latitude, decimals: 9)
            item.number("lon", e.region.center.longitude, decimals: 9)
            item.number("radius", e.region.radius, decimals: 3)
            item.bool("notifyOnEntry", e.region.notifyOnEntry)
            item.bool("notifyOnExit", e.region.notifyOnExit)
            item.number("dwellTime", e.region.dwellTime, decimals: 3)
            item.string("state", e.state.rawValue)
            item.endObject()
            list += (n > 0 ? "," : "") + item.text.dropLast()
        }
        raw("regions", list + "]")
        endObject()
    }

    /// `{"class":"EVENT","time":…,"event":…,"reason":…,"detail":…}`; `wallClock` is when it was raised.
    public func appendLocationEvent(_ e: LocationSessionEvent, wallClock: Double) {
        beginObject()
        string("class", "EVENT")
        string("time", WallClockTime.iso8601(unixSeconds: wallClock, fractionDigits: 6))
        string("event", e.name.rawValue)
        string("reason", e.reason.rawValue)
        string("detail", e.detail)
        endObject()
    }
}
