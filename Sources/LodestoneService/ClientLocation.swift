import LodestoneSession

/// What one client asked of the location half with `?WATCH` and `?REGION`.
struct ClientLocation {
    /// HEADING objects (and a claim on the sensors); false for a client that wants positions only.
    var headings = true
    /// LOCATION objects.
    var locations = false
    /// REGION objects of enter, exit and dwell.
    var regions = false
    /// A TRACK object with each recorded fix.
    var track = false
    /// The client's desiredAccuracy and distanceFilter: which fixes give it LOCATION and STEER objects.
    var delivery = try! LocationDelivery()
    /// Regions whose state the client asked for and will be told once a fix decides it.
    var pendingStates: Set<String> = []

    /// Location EVENTs (refused fixes, the source's state) go to clients that take any location object.
    var wantsLocationEvents: Bool { locations || regions || track }

    /// Applies `?WATCH`'s location keys; absent keys keep their values while the client
    /// watches, and take their defaults when it starts. A watch starts the distance filter afresh.
    mutating func apply(_ w: ClientCommand.LocationWatch, wasWatching: Bool) throws(ClientCommand.Failure) {
        let keep = wasWatching ? self : ClientLocation()
        headings = w.heading ?? keep.headings
        locations = w.location ?? keep.locations
        regions = w.regions ?? keep.regions
        track = w.track ?? keep.track
        do {
            delivery = try LocationDelivery(desiredAccuracy: w.desiredAccuracy ?? keep.delivery.desiredAccuracy,
                                            distanceFilter: w.distanceFilter ?? keep.delivery.distanceFilter)
        } catch {
            throw ClientCommand.Failure("?WATCH: \(error)")
        }
    }
}
