/// How large the compass error is, learned from how the field's strength
/// varies as the board turns.
///
/// The earth field has one strength at a place. A calibrated magnetometer
/// reads that strength at every attitude; residual hard or soft iron makes it
/// vary with the attitude, by about as much as it bends the field's horizontal
/// part sideways. So the spread of the strength over the attitudes the board
/// took, less the magnetometer's noise, divided by the horizontal field, is
/// the heading error the compass makes (1σ): the same relation a calibration
/// profile's fit error is read with. A board that has not turned shows
/// nothing either way, so the figure moves only as the board turns (and no
/// faster than over ``learningTime``), starting from the figure it is given
/// (the profile's, or an uncalibrated guess). The spread is taken from the
/// mean absolute departure, so the few readings near the disturbance
/// tolerance do not dominate it.
public struct CompassErrorSpread: Hashable, Sendable {
    /// The compass heading error, rad² (1σ squared).
    public private(set) var variance: Double
    /// The mean absolute departure of the field strength from the reference, µT;
    /// nil until the first clean reading tells the horizontal field.
    private var meanDeparture: Double?
    private let initialVariance: Double
    private let smallestVariance: Double
    /// Rotation over which a new figure replaces the old one, rad, and the shortest time it takes, s.
    public let learningAngle: Double
    public let learningTime: Double
    /// E|x| = σ·√(2/π) for a normal x.
    static let normalMeanAbsolute = (2 / Double.pi).squareRoot()

    public init(initialVariance: Double, smallestVariance: Double, learningAngle: Double, learningTime: Double) {
        variance = initialVariance
        self.initialVariance = initialVariance
        self.smallestVariance = smallestVariance
        self.learningAngle = learningAngle
        self.learningTime = learningTime
    }

    /// Folds in one clean reading: its strength and the reference's (µT), the
    /// reference's horizontal part squared (µT²), the magnetometer's noise
    /// variance per axis (µT²), the angle turned (rad) and the time (s) since the last reading.
    public mutating func learn(strength: Double, reference: Double, horizontalSquared: Double,
                               noiseVariance: Double, turned: Double, dt: Double) {
        guard horizontalSquared > 0 else { return }
        let current = meanDeparture
            ?? ((initialVariance * horizontalSquared + noiseVariance).squareRoot() * Self.normalMeanAbsolute)
        let k = min(1, turned / learningAngle, dt / learningTime)
        let updated = current + (abs(strength - reference) - current) * k
        meanDeparture = updated
        let spread = updated / Self.normalMeanAbsolute
        variance = max(smallestVariance, (spread * spread - noiseVariance) / horizontalSquared)
    }
}
