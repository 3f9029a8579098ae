#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether a magnetometer reading may correct the heading.
///
/// The undisturbed earth field has a fixed strength and dip at a place. A
/// magnet passing by, or fixed to the board, changes both, so a reading whose
/// norm or dip leaves the reference by more than a tolerance is rejected and
/// the heading runs on the gyro alone. The reference is learned from accepted
/// readings (a running mean at first, then a slow average so that it follows
/// temperature drift but not a disturbance).
///
/// A field that stays different for good (the board moved into a vehicle, or
/// the reference was learned next to a magnet) is adopted as the new
/// reference once it has been *constant in the earth frame* for
/// ``newFieldTime`` while the board turned by at least ``newFieldRotation``
/// (readings that happen to match the old reference meanwhile do not matter).
/// A magnet attached to the board turns with it, so its field is not constant
/// in the earth frame and is never adopted; a board that lies still cannot
/// tell the two apart, so it waits.
public struct MagneticDisturbanceRejection: Hashable, Sendable {
    /// Largest relative deviation of the field strength from the reference.
    public var normTolerance: Double
    /// Largest deviation of the dip angle from the reference, rad.
    public var dipTolerance: Double { didSet { cosDipTolerance = cos(dipTolerance) } }
    /// Averaging time of the reference once learned, s.
    public var referenceTime: Double
    /// White noise of each magnetometer axis, µT: a reading may stray this
    /// much (three standard deviations of the vector) from a constant field.
    public var noise: Double { didSet { noiseAllowance = 3 * (3.0).squareRoot() * noise } }
    /// How long a different field must stay constant in the earth frame before it is adopted, s.
    public var newFieldTime: Double
    /// How far the board must turn meanwhile, rad.
    public var newFieldRotation: Double

    /// Reference field strength, µT (nil until the first reading).
    public private(set) var referenceNorm: Double?
    /// Sine of the reference dip angle (positive when the field points down).
    public private(set) var referenceSinDip = 0.0
    /// Whether the last reading was rejected as disturbed.
    public private(set) var isDisturbed = false

    private var learnedTime = 0.0
    private var cosDipTolerance: Double
    private var noiseAllowance: Double
    private var referenceCosDip = 1.0
    private var candidateMean = Vector3.zero
    private var candidateTime = 0.0
    private var candidateRotation = 0.0

    public init(normTolerance: Double, dipTolerance: Double, referenceTime: Double,
                noise: Double, newFieldTime: Double, newFieldRotation: Double) {
        self.noise = noise
        noiseAllowance = 3 * (3.0).squareRoot() * noise
        self.normTolerance = normTolerance
        self.dipTolerance = dipTolerance
        cosDipTolerance = cos(dipTolerance)
        self.referenceTime = referenceTime
        self.newFieldTime = newFieldTime
        self.newFieldRotation = newFieldRotation
    }

    /// Reference dip angle in radians (positive down), or nil before the first reading.
    public var referenceDip: Double? { referenceNorm == nil ? nil : asin(referenceSinDip) }

    /// Classifies one reading. `fieldInEarth` is the reading rotated into the
    /// earth frame with the current attitude, `norm` its length, `rotation` the
    /// angle the board turned since the previous reading (rad).
    /// Returns true when the reading matches the reference.
    public mutating func classify(fieldInEarth e: Vector3, norm: Double, rotation: Double, dt: Double) -> Bool {
        guard referenceNorm != nil else {
            adopt(norm: norm, sinDip: -e.z / norm)
            return true
        }
        isDisturbed = !matches(fieldInEarth: e, norm: norm)
        if trackCandidate(e, rotation: rotation, dt: dt) { isDisturbed = false }
        return !isDisturbed
    }

    /// Whether a reading matches the reference in strength and dip, without
    /// counting it as evidence of anything (unlike ``classify(fieldInEarth:norm:rotation:dt:)``).
    public func matches(fieldInEarth e: Vector3, norm: Double) -> Bool {
        guard let ref = referenceNorm else { return true }
        // cos(dip − reference dip) from the field's vertical and horizontal parts.
        let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
        let cosDipError = (horizontal * referenceCosDip - e.z * referenceSinDip) / norm
        return abs(norm - ref) <= normTolerance * ref && cosDipError >= cosDipTolerance
    }

    /// How far a reading departs from the reference, µT: the strength's
    /// difference and the dip's (as an arc of the field). A disturbing field
    /// is at least this large; 0 before the first reading.
    public func departure(fieldInEarth e: Vector3, norm: Double) -> Double {
        guard let ref = referenceNorm else { return 0 }
        let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
        // sin(dip − reference dip), from the field's vertical and horizontal parts.
        let sinDipError = (-e.z * referenceCosDip - horizontal * referenceSinDip) / norm
        let strength = norm - ref, arc = sinDipError * norm
        return (strength * strength + arc * arc).squareRoot()
    }

    /// Folds an accepted reading into the reference.
    public mutating func learn(norm: Double, sinDip: Double, dt: Double) {
        guard let ref = referenceNorm else { return adopt(norm: norm, sinDip: sinDip) }
        learnedTime += dt
        let k = dt / min(referenceTime, learnedTime)
        referenceNorm = ref + (norm - ref) * k
        setSinDip(referenceSinDip + (sinDip - referenceSinDip) * k)
    }

    /// Forgets the reference; the next reading starts a new one.
    public mutating func reset() {
        referenceNorm = nil
        isDisturbed = false
        learnedTime = 0
        candidateTime = 0
    }

    /// Follows the field as seen in the earth frame; returns true when it has
    /// been constant long enough, over enough rotation, to become the reference.
    private mutating func trackCandidate(_ e: Vector3, rotation: Double, dt: Double) -> Bool {
        if candidateTime > 0, (e - candidateMean).length <= normTolerance * candidateMean.length + noiseAllowance {
            candidateTime += dt
            candidateRotation += rotation
            candidateMean += (e - candidateMean) * (dt / candidateTime)
        } else {
            candidateMean = e
            candidateTime = dt
            candidateRotation = 0
        }
        // A field that still matches the reference is no new one: adopting it
        // would let a field that drifts slowly (a room's field fading, while
        // its step is removed from the readings) walk the reference away.
        guard candidateTime >= newFieldTime, candidateRotation >= newFieldRotation,
              !matches(fieldInEarth: candidateMean, norm: candidateMean.length) else { return false }
        let n = candidateMean.length
        let averagedOver = candidateTime
        adopt(norm: n, sinDip: -candidateMean.z / n)
        learnedTime = averagedOver
        return true
    }

    private mutating func adopt(norm: Double, sinDip: Double) {
        referenceNorm = norm
        setSinDip(sinDip)
        learnedTime = 0
        candidateTime = 0
    }

    private mutating func setSinDip(_ s: Double) {
        referenceSinDip = min(1, max(-1, s))
        referenceCosDip = (1 - referenceSinDip * referenceSinDip).squareRoot()
    }
}
