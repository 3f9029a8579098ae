import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneLocation
import LodestoneLogs
import LodestoneSession

/// `lodestone track`: the route recorder of the running service.
enum TrackCommand: Command {
    static let name = "track"
    static let summary = "Record a route with the running service: start, pause, resume, stop, status, export to GPX."
    static let usage = "track start|pause|resume|stop|status|export [-o FILE.gpx] [--socket PATH] [--json]"
    static let discussion = """
        The recorder lives in 'lodestone serve' (its position source: gpsd, a position log or a
        fixed position), so a route goes on being recorded after this command returns, as an
        app's route keeps recording in the background. Each action prints the recorder's
        state and figures: distance along the track (geodesic, counting only movement beyond
        the fixes' accuracy), elapsed and moving time, current, average and maximum speed.
        pause ends a GPX segment and resume starts a new one; stop keeps the route until the
        next start. export writes the route as GPX 1.1 (speed and course in Garmin's
        TrackPointExtension, accuracies in Lodestone's extension), atomically to -o FILE or to
        standard output; it can be replayed with --position-log. Without a daemon, record
        with 'lodestone locate' and keep its NDJSON, or export a track started by the service.
        """
    static let options: [CommandLineOption] = [
        ServiceConnection.socketOption,
        .value("output", "FILE", short: "o", "export: write the GPX here (atomically) instead of standard output."),
        .value("name", "NAME", "export: the track's name in the GPX file."),
        .flag("json", "Print the TRACK object as JSON."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let action = try arguments.positionals(required: 1, "ACTION")[0]
        let actions = ["start", "pause", "resume", "stop", "status", "export"]
        guard actions.contains(action) else { throw UsageError("unknown action '\(action)'; use one of \(actions.joined(separator: ", "))") }
        if action != "export", arguments.string("output") != nil || arguments.string("name") != nil {
            throw UsageError("-o and --name go with export")
        }
        let service = try ServiceConnection(path: arguments.string("socket") ?? ServiceConnection.defaultSocket)
        if action == "export" { return try export(service, to: arguments.string("output"), name: arguments.string("name")) }
        let track = try service.request(#"?TRACK={"action":"\#(action)"};"#, answer: "TRACK")
        print(arguments.flag("json") ? JSONLineBuilder.text(of: .object(track)) : describe(track))
        return .success
    }

    static func describe(_ t: [String: JSONValue]) -> String {
        func n(_ k: String) -> Double? { t[k]?.numberValue }
        func speed(_ k: String) -> String { n(k).map { BearingCommand.fixed($0, 1) } ?? "–" }
        return "\(t["state"]?.stringValue ?? "?"): \(BearingCommand.distance(n("distance") ?? 0)), \(clock(n("elapsedTime") ?? 0)) elapsed"
            + " (\(clock(n("movingTime") ?? 0)) moving), speed \(speed("speed")) m/s (average \(speed("averageSpeed")), maximum \(speed("maximumSpeed"))),"
            + " \(Int(n("points") ?? 0)) points"
    }

    /// h:mm:ss.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        let mm = s / 60 % 60, ss = s % 60
        return "\(s / 3600):\(mm < 10 ? "0" : "")\(mm):\(ss < 10 ? "0" : "")\(ss)"
    }

    /// Fetches every point, page by page (the service sends at most 100 at a time), as GPX.
    static func export(_ service: ServiceConnection, to path: String?, name: String?) throws -> ExitCode {
        var segments: [[GPXPoint]] = []
        var offset = 0, total = Int.max
        while offset < total {
            let page = try service.request(#"?TRACK={"action":"points","offset":\#(offset)};"#, answer: "TRACKPOINTS")
            if total == .max { total = Int(page["total"]?.numberValue ?? 0) }
            let points = page["points"]?.arrayValue ?? []
            if points.isEmpty { break }
            for p in points.compactMap(\.objectValue) {
                let segment = Int(p["segment"]?.numberValue ?? 0)
                while segments.count <= segment { segments.append([]) }
                segments[segment].append(point(p))
            }
            offset += points.count
        }
        guard offset > 0 else { throw CommandFailure(.badInput, "the service has no recorded route: start one with 'lodestone track start'") }
        let document = GPXDocument(name: name, time: segments.first(where: { !$0.isEmpty })?.first?.time,
                                   tracks: [GPXTrack(name: name, segments: segments.filter { !$0.isEmpty })])
        let text = GPXWriter.write(document)
        if let path {
            do {
                try AtomicFile.write(Array(text.utf8), to: path)
            } catch {
                throw CommandFailure(.inaccessible, error.description)
            }
            Console.note("lodestone: \(offset) points written to \(path)")
        } else {
            print(text, terminator: "")
        }
        return .success
    }

    static func point(_ p: [String: JSONValue]) -> GPXPoint {
        GPXPoint(latitude: p["lat"]?.numberValue ?? .nan, longitude: p["lon"]?.numberValue ?? .nan,
                 elevation: p["altitude"]?.numberValue, time: p["time"]?.stringValue.flatMap(WallClockTime.parse),
                 speed: p["speed"]?.numberValue, course: p["course"]?.numberValue,
                 horizontalAccuracy: p["horizontalAccuracy"]?.numberValue, verticalAccuracy: p["verticalAccuracy"]?.numberValue)
    }
}

extension JSONLineBuilder {
    /// A JSON value as one line of text, without the newline.
    static func text(of value: JSONValue) -> String {
        let j = JSONLineBuilder(capacity: 1024)
        j.append(value)
        return j.text
    }
}
