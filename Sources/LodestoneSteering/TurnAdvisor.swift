import LodestoneCore

/// Turns a position, a target and a heading into steering advice, with memory.
///
/// A stateless classification flaps when the delta sits on a band edge and the
/// compass jitters by a degree, and "arrived" flickers when GNSS noise moves
/// the fix across the arrival radius. The advisor keeps its last decision
/// and changes it only when the input has moved clearly past the edge:
///
/// - Turn: the held instruction is kept while the delta stays inside its band
///   widened by `turnHysteresis` on both sides; otherwise the instruction is
///   re-classified from the bands. `turnAround` is a single band across ±180°,
///   so it never switches between left and right.
/// - Arrival: "arrived" is entered at distance ≤ `arrivalRadius` and left only at
///   distance > `arrivalRadius + arrivalHysteresis`. The update that enters it says
///   so once (`justArrived`). While arrived no turn and no ETA are given (a bearing
///   to a point a few metres away is mostly position noise), and the held turn is
///   forgotten so the next leg starts fresh.
///
/// A value type: copy it to fork the state, `reset()` for a new target.
public struct TurnAdvisor: Sendable {
    public let settings: Settings
    /// The instruction currently held (nil before the first delta, or after arrival).
    public private(set) var currentTurn: TurnInstruction?
    /// Whether the target is currently considered reached.
    public private(set) var hasArrived = false

    public init(settings: Settings = Settings()) throws(SteeringInputError) {
        try settings.validate()
        self.settings = settings
    }

    /// Advice for one fix. `heading` is the true heading in degrees (nil or
    /// non-finite when unknown); `groundSpeed` in m/s (nil, negative or
    /// non-finite when unknown, as Core Location reports an invalid speed).
    public mutating func advise(from position: GeoCoordinate, to target: GeoCoordinate,
                                heading: Double?, groundSpeed: Double? = nil) -> SteeringAdvice {
        let path = Geodesic.wgs84.inverse(from: position, to: target)
        let wasArrived = hasArrived
        let arrived = updateArrival(distance: path.distance)
        var delta: Double?
        var turn: TurnInstruction?
        if !arrived, let heading, heading.isFinite {
            let difference = Angle.difference(from: heading, to: path.initialBearing)
            delta = difference
            turn = updateTurn(delta: difference)
        }
        var eta: Double?
        if !arrived, let groundSpeed, groundSpeed.isFinite, groundSpeed > settings.minimumSpeedForETA {
            eta = path.distance / groundSpeed
        }
        return SteeringAdvice(bearing: path.initialBearing, finalBearing: path.finalBearing,
                              distance: path.distance, delta: delta, turn: turn,
                              arrived: arrived, eta: eta,
                              turnAroundSide: turn == .turnAround ? delta.map(TurnSide.init(delta:)) : nil,
                              justArrived: arrived && !wasArrived)
    }

    /// The turn step alone: feed a delta (target − heading, degrees, any
    /// value; wrapped), get the held instruction.
    public mutating func updateTurn(delta: Double) -> TurnInstruction {
        if let held = currentTurn,
           held.contains(delta: delta, aheadTolerance: settings.aheadTolerance, margin: settings.turnHysteresis) {
            return held
        }
        let fresh = TurnInstruction(delta: delta, aheadTolerance: settings.aheadTolerance)
        currentTurn = fresh
        return fresh
    }

    /// The arrival step alone: feed a distance in metres, get whether the target is reached.
    public mutating func updateArrival(distance: Double) -> Bool {
        let limit = hasArrived ? settings.arrivalRadius + settings.arrivalHysteresis : settings.arrivalRadius
        hasArrived = distance <= limit
        if hasArrived { currentTurn = nil }
        return hasArrived
    }

    /// Forgets the held turn and arrival, e.g. for a new target.
    public mutating func reset() {
        currentTurn = nil
        hasArrived = false
    }
}
