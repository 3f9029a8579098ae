import LodestoneCommandLine
import LodestoneLocation
import LodestoneLogs
import LodestoneSession
import LodestoneSteering

/// `lodestone locate`: the live position stream, as `startUpdatingLocation` gives it.
enum LocateCommand: Command {
    static let name = "locate"
    static let summary = "Print the live position stream (gpsd, an NMEA log, a GPX track or a fixed position) as NDJSON."
    static let usage = "locate [--gpsd HOST:PORT | --position-log FILE | --lat DEG --lon DEG] [options]"
    static let discussion = """
        One JSON object per line, the same objects as serve's protocol (PROTOCOL.md):
        LOCATION for each fix delivered (lat, lon, altitude, ellipsoidalAltitude, the
        accuracies, speed, course, and time: the receiver's time of the fix), EVENT when a
        fix is refused (locationRejected with the reason: implausibleJump, outOfOrder,
        latitudeOutOfRange…), when a value is dropped (locationValueDiscarded), and when the
        source has no fix or cannot be reached (locationUnavailable) or gives fixes again
        (locationAvailable); with --regions, REGION for each entry, exit and dwell.
        --distance-filter M delivers a fix only once it is M metres (geodesic) from the last
        one delivered (the first always; 0, the default, delivers all); --desired-accuracy M
        drops fixes whose horizontal accuracy is worse than M metres, as Core Location does.
        The source is gpsd at localhost:2947 unless another is given; it reconnects with
        back-off. A position log (NMEA 0183 or GPX) is replayed at its recorded pace
        (--position-speed X, or max for every fix at once) and the command ends with it.
        A fixed position gives the same fix once a second. --place adds the nearest populated
        place (bundled GeoNames) to each LOCATION. Ctrl-C stops with exit code 130, SIGTERM with 0.
        """
    static let options: [CommandLineOption] = [
        .value("gpsd", "HOST:PORT", "Fixes from gpsd (default localhost:2947)."),
        .value("position-log", "FILE", "Replay an NMEA 0183 log or a GPX track."),
        .value("position-speed", "X", "Position log: recorded seconds per second (default 1), or max."),
        .flag("position-loop", "Position log: start again at its end."),
        .value("lat", "DEG", "A fixed position: latitude."),
        .value("lon", "DEG", "A fixed position: longitude."),
        .value("alt-m", "M", "A fixed position: height above the WGS 84 ellipsoid (default 0)."),
        .value("distance-filter", "M", "Metres between delivered fixes (default 0: every fix)."),
        .value("desired-accuracy", "M", "Drop fixes less accurate than this many metres."),
        .value("regions", "FILE", "Watch the regions of a region file (as 'lodestone regions --file' writes it); it is not changed."),
        .flag("place", "Add the nearest populated place to each LOCATION."),
        .value("count", "N", "Stop after N locations."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        var trueNorth = TrueNorth.Settings()
        try HeadingFlags.applyPosition(arguments, to: &trueNorth)
        if trueNorth.position == .none { trueNorth.position = .gpsd(PositionSetting.defaultGPSD) }
        let count = try arguments.integer("count", minimum: 1)
        let desired = try arguments.double("desired-accuracy") ?? .infinity, distance = try arguments.double("distance-filter") ?? 0
        var delivery: LocationDelivery
        do {
            delivery = try LocationDelivery(desiredAccuracy: desired, distanceFilter: distance)
        } catch {
            throw UsageError(error.description.replacing("desiredAccuracy", with: "--desired-accuracy").replacing("distanceFilter", with: "--distance-filter"))
        }
        var regions: RegionSet?
        if let path = arguments.string("regions") {
            regions = try RegionFile.load(path, settings: .init())
            if regions == nil { throw CommandFailure(.inaccessible, "regions file \(path): no such file") }
        }
        let places = arguments.flag("place") ? try PlaceGeocoder.bundled() : nil
        let stop = StopSignals()
        var runner = try LocationRunner(position: trueNorth.position, session: try LocationSession(regions: regions),
                                        clock: SystemClock(stop: stop.flag))
        stop.onStop {}
        defer { runner.close() }
        let output = OutputStream(fd: 1)
        let json = JSONLineBuilder(capacity: 4096)
        var delivered = 0
        while let outputs = runner.next() {
            json.removeAll()
            for o in outputs {
                switch o {
                case .location(let fix):
                    guard delivery.deliver(fix) else { continue }
                    json.appendLocation(fix, place: places.flatMap { g in fix.coordinate.map { g.nearest(to: $0) } })
                    delivered += 1
                case .region(let e): json.appendRegionEvent(e)
                case .event(let e): json.appendLocationEvent(e, wallClock: WallClock.now())
                case .message(let text): Console.note("lodestone: " + text)
                }
            }
            if json.count > 0 { output.write(json.bytes) }
            if output.failed { break }
            if let count, delivered >= count { break }
        }
        return stop.exitCode
    }
}
