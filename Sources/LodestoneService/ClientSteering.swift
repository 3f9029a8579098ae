import LodestoneCore
import LodestoneLogs
import LodestoneLocation
import LodestoneSteering

/// One client's steering target (`?STEER=…`): with each heading it receives,
/// a STEER object with the bearing and distance to the target and which way
/// to turn, from ``TurnAdvisor`` (dead-band, hysteresis, arrival, ETA).
struct ClientSteering {
    let target: GeoCoordinate
    var advisor: TurnAdvisor

    init(_ request: ClientCommand.Steer) throws(ClientCommand.Failure) {
        do {
            target = try GeoCoordinate(latitude: request.latitude, longitude: request.longitude)
            var settings = TurnAdvisor.Settings()
            if let t = request.tolerance { settings.aheadTolerance = t }
            if let r = request.arrivalRadius { settings.arrivalRadius = r }
            advisor = try TurnAdvisor(settings: settings)
        } catch {
            throw ClientCommand.Failure("?STEER: \(Self.rename(error.description))")
        }
    }

    /// The protocol names the settings after the request keys.
    private static func rename(_ text: String) -> String {
        text.replacing("aheadTolerance", with: "tolerance")
    }

    /// Encodes a STEER object for `heading` (nil: none fresh enough) at `position`, and after
    /// it, on the one update that reaches the target, a `steerArrived` EVENT with the final
    /// distance. False (nothing written) without a position.
    mutating func encode(into j: JSONLineBuilder, heading: Heading?, position: Location?, time: Double) -> Bool {
        guard let p = position, let from = p.coordinate else { return false }
        let advice = advisor.advise(from: from, to: target, heading: heading?.trueHeading, groundSpeed: p.speed)
        j.beginObject()
        j.string("class", "STEER")
        j.time("time", unixSeconds: time)
        j.number("lat", target.latitude, decimals: 7)
        j.number("lon", target.longitude, decimals: 7)
        j.bearing("bearing", advice.bearing, decimals: 3)
        j.bearing("finalBearing", advice.finalBearing, decimals: 3)
        j.number("distance", advice.distance, decimals: 2)
        j.bearing("trueHeading", heading?.trueHeading, decimals: 3)
        j.signedAngle("delta", advice.delta, decimals: 3)
        j.string("turn", advice.turn?.rawValue)
        j.string("turnAroundSide", advice.turnAroundSide?.rawValue)
        j.bool("arrived", advice.arrived)
        j.bool("justArrived", advice.justArrived)
        j.number("eta", advice.eta, decimals: 1)
        j.number("speed", p.speed, decimals: 3)
        j.bearing("course", p.course, decimals: 2)
        j.endObject()
        if advice.justArrived { arrived(into: j, distance: advice.distance, time: time) }
        return true
    }

    /// `{"class":"EVENT","event":"steerArrived","reason":"withinArrivalRadius","distance":M,…}`.
    private func arrived(into j: JSONLineBuilder, distance: Double, time: Double) {
        let detail = "arrived: \(Self.metres(distance)) m from the target, within the arrival radius of \(Self.metres(advisor.settings.arrivalRadius)) m"
        ProtocolMessages.beginEvent(j, ServiceEvent("steerArrived", reason: "withinArrivalRadius", detail), time: time)
        j.number("distance", distance, decimals: 2)
        j.endObject()
    }

    private static func metres(_ v: Double) -> String {
        let j = JSONLineBuilder(capacity: 32)
        j.appendNumber(v, decimals: 1)
        return j.text
    }
}
