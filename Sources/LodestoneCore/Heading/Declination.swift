/// Magnetic declination at the board's position: true = magnetic + degrees.
///
/// Comes from the geomagnetic model; `isReliable` is false in the model's
/// blackout zone near the magnetic poles, where true heading is not reported.
@frozen
public struct Declination: Hashable, Sendable {
    /// Degrees east of true north.
    public var degrees: Double
    /// The model's 1σ declination uncertainty in degrees.
    public var uncertainty: Double
    public var isReliable: Bool

    public init(degrees: Double, uncertainty: Double = 0, isReliable: Bool = true) {
        self.degrees = degrees
        self.uncertainty = uncertainty
        self.isReliable = isReliable
    }

    /// True heading for a magnetic heading, in [0, 360); nil when unreliable.
    @inlinable
    @inline(__always) // every completed heading asks for it
    public func trueHeading(fromMagnetic heading: Double) -> Double? {
        isReliable ? Angle.normalized360(heading + degrees) : nil
    }
}
