/// The parts of a GPX 1.1 file that Lodestone writes and replays: waypoints,
/// routes and tracks of points with position, elevation, time, and the
/// speed, course and accuracies that GPX keeps in extensions.
public struct GPXDocument: Sendable, Equatable {
    public var creator: String
    /// `metadata/name`.
    public var name: String?
    /// `metadata/time`, Unix seconds.
    public var time: Double?
    public var waypoints: [GPXPoint]
    public var routes: [GPXRoute]
    public var tracks: [GPXTrack]

    public init(creator: String = "Lodestone", name: String? = nil, time: Double? = nil,
                waypoints: [GPXPoint] = [], routes: [GPXRoute] = [], tracks: [GPXTrack] = []) {
        self.creator = creator
        self.name = name
        self.time = time
        self.waypoints = waypoints
        self.routes = routes
        self.tracks = tracks
    }

    /// The fixes of every track point that has a time, tracks and segments in file
    /// order: what a replay feeds to ``LocationFilter``.
    public var trackLocations: [Location] {
        tracks.flatMap { $0.segments.flatMap { $0.compactMap(\.location) } }
    }
}

/// A `wpt`, `rtept` or `trkpt`.
public struct GPXPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// `ele`: metres, above mean sea level as GPS receivers report it.
    public var elevation: Double?
    /// Unix seconds.
    public var time: Double?
    public var name: String?
    /// m/s (GPX 1.0 `speed`, or Garmin's TrackPointExtension v2 in GPX 1.1).
    public var speed: Double?
    /// Degrees from true north (GPX 1.0 `course`, or TrackPointExtension v2).
    public var course: Double?
    /// Metres (Lodestone's extension).
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Double? = nil, name: String? = nil,
                speed: Double? = nil, course: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
        self.name = name
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
    }

    /// The point of a fix.
    public init(_ location: Location) {
        self.init(latitude: location.latitude, longitude: location.longitude, elevation: location.altitude,
                  time: location.timestamp, speed: location.speed, course: location.course,
                  horizontalAccuracy: location.horizontalAccuracy, verticalAccuracy: location.verticalAccuracy)
    }

    /// The point as a fix; nil without a time.
    public var location: Location? {
        guard let time else { return nil }
        return Location(latitude: latitude, longitude: longitude, altitude: elevation,
                        horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
                        speed: speed, course: course, timestamp: time)
    }
}

public struct GPXRoute: Sendable, Equatable {
    public var name: String?
    public var points: [GPXPoint]

    public init(name: String? = nil, points: [GPXPoint] = []) {
        self.name = name
        self.points = points
    }
}

public struct GPXTrack: Sendable, Equatable {
    public var name: String?
    /// `trkseg`s: a pause or a loss of signal starts a new one.
    public var segments: [[GPXPoint]]

    public init(name: String? = nil, segments: [[GPXPoint]] = []) {
        self.name = name
        self.segments = segments
    }
}
