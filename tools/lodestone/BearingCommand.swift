import LodestoneCommandLine
import LodestoneCore
import LodestoneLogs
import LodestoneSteering

/// `lodestone bearing`: where a target lies from a position, and which way to turn.
enum BearingCommand: Command {
    static let name = "bearing"
    static let summary = "Bearing and distance to a target on the WGS 84 ellipsoid, and which way to turn."
    static let usage = "bearing --from LAT,LON --to LAT,LON [--heading DEG] [--json]"
    static let discussion = """
        The bearing is the initial direction of the shortest path (geodesic) on the WGS 84
        ellipsoid, degrees clockwise from true north; the distance is in metres (Karney's
        method, as GeographicLib). With --heading (a true heading in degrees), delta is
        bearing − heading in [−180, 180) (positive: the target is to the right) and turn is
        one of ahead, slightLeft, left, sharpLeft, turnAround, slightRight, right, sharpRight;
        within the arrival radius the target counts as reached (with or without --heading)
        and no turn is given. --tolerance needs --heading.
        """
    static let options: [CommandLineOption] = [
        .value("from", "LAT,LON", "Where you are, decimal degrees (south and west negative)."),
        .value("to", "LAT,LON", "The target."),
        .value("heading", "DEG", "Your true heading, for delta and turn."),
        .value("tolerance", "DEG", "Half-width of the 'ahead' band (default 10)."),
        .value("arrival-radius", "M", "Distance at which the target counts as reached (default 10)."),
        .flag("json", "Print one JSON object."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let from = try coordinate(arguments, "from"), to = try coordinate(arguments, "to")
        let heading = try arguments.double("heading")
        if heading == nil, arguments.string("tolerance") != nil {
            throw UsageError("--tolerance shapes the turn advice, which needs --heading")
        }
        var settings = TurnAdvisor.Settings()
        if let t = try arguments.double("tolerance") { settings.aheadTolerance = t }
        if let r = try arguments.double("arrival-radius") { settings.arrivalRadius = r }
        var advisor: TurnAdvisor
        do {
            advisor = try TurnAdvisor(settings: settings)
        } catch {
            throw UsageError(error.description.replacing("aheadTolerance", with: "--tolerance").replacing("arrivalRadius", with: "--arrival-radius"))
        }
        let advice = advisor.advise(from: from, to: to, heading: heading.map(Angle.normalized360))
        if arguments.flag("json") {
            let j = JSONLineBuilder(capacity: 1024)
            j.beginObject()
            j.number("bearing", BearingRounding.rounded(advice.bearing, decimals: 6), decimals: 6)
            j.number("finalBearing", BearingRounding.rounded(advice.finalBearing, decimals: 6), decimals: 6)
            j.number("distance", advice.distance, decimals: 3)
            if heading != nil {
                j.number("heading", heading.map { BearingRounding.rounded($0, decimals: 6) }, decimals: 6)
                j.number("delta", advice.delta, decimals: 6)
                j.string("turn", advice.turn?.rawValue)
            }
            j.bool("arrived", advice.arrived)
            j.endObject()
            print(j.text, terminator: "")
        } else {
            var text = "bearing \(fixed(BearingRounding.rounded(advice.bearing, decimals: 3), 3))° (true), distance \(distance(advice.distance))"
            if advice.arrived {
                text += "; arrived (within \(fixed(settings.arrivalRadius, 1)) m)"
            } else if let turn = advice.turn, let delta = advice.delta {
                text += "; turn \(turn.rawValue) (delta \(delta >= 0 ? "+" : "")\(fixed(delta, 1))°)"
            }
            print(text)
        }
        return .success
    }

    static func coordinate(_ arguments: CommandLineArguments, _ name: String) throws(UsageError) -> GeoCoordinate {
        guard let text = arguments.string(name) else { throw UsageError("--\(name) LAT,LON is required") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
            throw UsageError("--\(name) needs LAT,LON in decimal degrees (e.g. 52.5163,13.3777), got '\(text)'")
        }
        do {
            return try GeoCoordinate(latitude: lat, longitude: lon)
        } catch {
            throw UsageError("--\(name): \(error)")
        }
    }

    static func fixed(_ v: Double, _ decimals: Int) -> String {
        let j = JSONLineBuilder(capacity: 64)
        j.appendNumber(v, decimals: decimals)
        return j.text
    }

    static func distance(_ metres: Double) -> String {
        metres >= 10_000 ? fixed(metres / 1000, 3) + " km" : fixed(metres, 1) + " m"
    }
}
