/// Everything a display or a client needs to steer toward a target, from one fix.
///
/// A plain value (Sendable, Equatable, Codable) so it can cross actors and be
/// written as one JSON object; absent values are omitted from JSON, never
/// guessed.
public struct SteeringAdvice: Sendable, Equatable, Codable {
    /// Initial geodesic bearing to the target, degrees clockwise from true north, [0, 360).
    public var bearing: Double
    /// Direction of travel on arrival at the target along the geodesic, [0, 360).
    public var finalBearing: Double
    /// Geodesic distance to the target, metres.
    public var distance: Double
    /// `bearing` − heading in [−180, 180), positive when the target is to the right.
    /// nil when the heading is unknown or the target has been reached.
    public var delta: Double?
    /// The (hysteresis-filtered) instruction; nil exactly when `delta` is nil.
    public var turn: TurnInstruction?
    /// With `turn` = `turnAround`, the shorter way round; nil otherwise.
    public var turnAroundSide: TurnSide?
    /// Inside the arrival radius (with hysteresis; see `TurnAdvisor.Settings`).
    public var arrived: Bool
    /// True on the one update that arrived (`arrived` became true): the moment to
    /// announce arrival, with `distance` as the final distance. It fires again only
    /// after the target was left (beyond the radius plus its hysteresis) and reached anew.
    public var justArrived: Bool
    /// Seconds to cover `distance` at the current ground speed; nil when the speed
    /// is unknown or too low to mean anything, and once arrived (the countdown stops).
    /// A straight-line figure, not a route ETA.
    public var eta: Double?

    public init(bearing: Double, finalBearing: Double, distance: Double,
                delta: Double?, turn: TurnInstruction?, arrived: Bool, eta: Double?,
                turnAroundSide: TurnSide? = nil, justArrived: Bool = false) {
        self.bearing = bearing
        self.finalBearing = finalBearing
        self.distance = distance
        self.delta = delta
        self.turn = turn
        self.turnAroundSide = turnAroundSide
        self.arrived = arrived
        self.justArrived = justArrived
        self.eta = eta
    }
}
