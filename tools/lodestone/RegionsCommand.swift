import LodestoneCommandLine
import LodestoneLocation
import LodestoneLogs
import LodestoneSession
import LodestoneSteering

/// `lodestone regions`: the monitored regions of the running service, or of a region file.
enum RegionsCommand: Command {
    static let name = "regions"
    static let summary = "Monitor circular regions: add, remove, list, and ask a region's state."
    static let usage = "regions list|add ID --lat DEG --lon DEG --radius M|remove ID|state ID [--socket PATH | --file PATH] [--json]"
    static let discussion = """
        The regions are monitored by 'lodestone serve', which saves them (and whether the board
        is inside each) atomically in its regions file (config regions.file, default
        regions.json in its working directory), so that monitoring survives a restart; its
        watchers get REGION objects when the board enters, leaves, or (with --dwell) stays in
        a region. A region is entered within its radius less the hysteresis margin (the fix's
        accuracy, at least 10 m) and left beyond the radius plus it, so GPS jitter at the edge
        does not flap. state asks, as requestState does, whether the board is inside; before
        the first fix it is unknown. At most 20 regions (config regions.max).
        With --file PATH the command edits a region file directly instead: to prepare one
        before the service starts (while it runs, the service's own copy wins).
        """
    static let options: [CommandLineOption] = [
        ServiceConnection.socketOption,
        .value("file", "PATH", "Edit this region file instead of asking the service."),
        .value("lat", "DEG", "add: the centre's latitude."),
        .value("lon", "DEG", "add: the centre's longitude."),
        .value("radius", "M", "add: the radius in metres."),
        .value("dwell", "S", "add: also report staying inside this many seconds."),
        .flag("no-entry", "add: do not report entering."),
        .flag("no-exit", "add: do not report leaving."),
        .flag("json", "Print the REGIONS (or REGION) object as JSON."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let words = try arguments.positionals(required: 1, optional: 1, "ACTION [ID]")
        let action = words[0]
        guard ["list", "add", "remove", "state"].contains(action) else {
            throw UsageError("unknown action '\(action)'; use list, add, remove or state")
        }
        let id = words.count > 1 ? words[1] : nil
        guard (action == "list") == (id == nil) else {
            throw UsageError(action == "list" ? "list takes no ID" : "\(action) needs the region's ID")
        }
        let addFlags = ["lat", "lon", "radius", "dwell"].filter { arguments.string($0) != nil } + ["no-entry", "no-exit"].filter(arguments.flag)
        if action != "add", let f = addFlags.first { throw UsageError("--\(f) goes with add") }
        if let path = arguments.string("file") {
            guard arguments.string("socket") == nil else { throw UsageError("give --file (a region file) or --socket (the service), not both") }
            return try editFile(path, action: action, id: id, arguments)
        }
        let service = try ServiceConnection(path: arguments.string("socket") ?? ServiceConnection.defaultSocket)
        let answer: [String: JSONValue]
        switch action {
        case "add":
            answer = try service.request("?REGION=" + JSONLineBuilder.text(of: .object(try spec(arguments, id: id!).merging(["action": .string("add")]) { $1 })) + ";",
                                         answer: "REGIONS")
        case "remove":
            answer = try service.request("?REGION=" + JSONLineBuilder.text(of: .object(["action": .string("remove"), "identifier": .string(id!)])) + ";",
                                         answer: "REGIONS")
        case "state":
            answer = try service.request("?REGION=" + JSONLineBuilder.text(of: .object(["action": .string("state"), "identifier": .string(id!)])) + ";",
                                         answer: "REGION", timeout: 10)
        default:
            answer = try service.request("?REGION;", answer: "REGIONS")
        }
        print(arguments.flag("json") ? JSONLineBuilder.text(of: .object(answer)) : describe(answer))
        return .success
    }

    /// The region of `add`, as the protocol's keys.
    static func spec(_ a: CommandLineArguments, id: String) throws -> [String: JSONValue] {
        guard let lat = try a.double("lat", in: -90...90), let lon = try a.double("lon", in: -180...180), let radius = try a.double("radius") else {
            throw UsageError("add needs --lat, --lon and --radius")
        }
        var o: [String: JSONValue] = ["identifier": .string(id), "lat": .number(lat), "lon": .number(lon), "radius": .number(radius)]
        if let d = try a.double("dwell") { o["dwellTime"] = .number(d) }
        if a.flag("no-entry") { o["notifyOnEntry"] = .bool(false) }
        if a.flag("no-exit") { o["notifyOnExit"] = .bool(false) }
        return o
    }

    /// The same actions on a region file, written atomically.
    static func editFile(_ path: String, action: String, id: String?, _ a: CommandLineArguments) throws -> ExitCode {
        let settings = RegionMonitor.Settings()
        var monitor = try RegionMonitor(restoring: try RegionFile.load(path, settings: settings) ?? RegionSet(), settings: settings)
        do {
            switch action {
            case "add":
                let s = try spec(a, id: id!)
                let centre = try GeoCoordinate(latitude: s["lat"]!.numberValue!, longitude: s["lon"]!.numberValue!)
                try monitor.startMonitoring(try CircularRegion(identifier: id!, center: centre, radius: s["radius"]!.numberValue!,
                                                               notifyOnEntry: !a.flag("no-entry"), notifyOnExit: !a.flag("no-exit"),
                                                               dwellTime: s["dwellTime"]?.numberValue))
            case "remove":
                try monitor.stopMonitoring(identifier: id!)
            case "state":
                let state = try monitor.state(of: id!)
                let j = JSONLineBuilder(capacity: 256)
                j.appendRegionEvent(.determinedState(identifier: id!, state: state))
                print(a.flag("json") ? String(j.text.dropLast()) : "\(id!): \(state.rawValue) (as saved)")
                return .success
            default:
                break
            }
        } catch let error as RegionError {
            throw CommandFailure(.badInput, "\(path): \(error)")
        }
        if action != "list" { try RegionFile.save(monitor.snapshot, to: path, settings: settings) }
        let j = JSONLineBuilder(capacity: 4096)
        j.appendRegions(monitor.snapshot)
        let answer = (try? JSONParser.parse(j.text))?.objectValue ?? [:]
        print(a.flag("json") ? String(j.text.dropLast()) : describe(answer))
        return .success
    }

    static func describe(_ o: [String: JSONValue]) -> String {
        if o["class"]?.stringValue == "REGION" {
            return "\(o["identifier"]?.stringValue ?? "?"): \(o["state"]?.stringValue ?? "?")"
        }
        let regions = (o["regions"]?.arrayValue ?? []).compactMap(\.objectValue)
        guard !regions.isEmpty else { return "no regions monitored" }
        return regions.map { r in
            var text = "\(r["identifier"]?.stringValue ?? "?"): \(BearingCommand.fixed(r["lat"]?.numberValue ?? .nan, 6)), "
                + "\(BearingCommand.fixed(r["lon"]?.numberValue ?? .nan, 6)), radius \(BearingCommand.fixed(r["radius"]?.numberValue ?? .nan, 1)) m"
            if let d = r["dwellTime"]?.numberValue { text += ", dwell \(BearingCommand.fixed(d, 0)) s" }
            if r["notifyOnEntry"]?.boolValue == false { text += ", no entry events" }
            if r["notifyOnExit"]?.boolValue == false { text += ", no exit events" }
            return text + "; \(r["state"]?.stringValue ?? "unknown")"
        }.joined(separator: "\n")
    }
}
