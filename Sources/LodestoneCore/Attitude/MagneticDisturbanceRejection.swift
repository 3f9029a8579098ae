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
///
/// A reading's dip is read through the filter's tilt, so it is off by as much
/// as that tilt is, and readings taken within the tilt error's correlation time
/// share that error. So the reference dip is a mean weighed by how well the
/// tilt was known, it is known only as well as those readings together tell
/// (``referenceDipVariance``), and a reading is judged against it within three
/// of its standard deviations beyond the tolerance. A board switched on while
/// a hand moves it starts from a tilt off by the hand's acceleration: the dip it
/// reads then is as far off, and taken at face value it made the true field
/// look disturbed for minutes.
public struct MagneticDisturbanceRejection: Hashable, Sendable {
    /// Largest relative deviation of the field strength from the reference.
    public var normTolerance: Double
    /// Largest deviation of the dip angle from the reference, rad.
    public var dipTolerance: Double { didSet { updateDipAllowance() } }
    /// Averaging time of the reference once learned, s.
    public var referenceTime: Double
    /// White noise of each magnetometer axis, µT: a reading may stray this
    /// much (three standard deviations of the vector) from a constant field.
    public var noise: Double { didSet { noiseAllowance = 3 * (3.0).squareRoot() * noise } }
    /// How long a different field must stay constant in the earth frame before it is adopted, s.
    public var newFieldTime: Double
    /// How far the board must turn meanwhile, rad.
    public var newFieldRotation: Double
    /// How long the tilt's error lasts, s: the readings within it share one.
    public var tiltCorrelationTime: Double { didSet { updateDipAllowance() } }
    /// Variance of the tilt the next readings are read with, rad² (the fusion sets it).
    public var tiltVariance = 0.0

    /// Reference field strength, µT (nil until the first reading).
    public private(set) var referenceNorm: Double?
    /// Sine of the reference dip angle (positive when the field points down).
    public private(set) var referenceSinDip = 0.0
    /// Whether the last reading was rejected as disturbed.
    public private(set) var isDisturbed = false

    private var learnedTime = 0.0
    /// The weight of the readings in the reference dip: ∫ dt / (their dip's variance), s/rad².
    private var dipWeight = 0.0 { didSet { updateDipAllowance() } }
    /// cos of the largest dip error a clean reading may show, kept with `dipWeight`:
    /// matches(…) runs for every reading.
    private var cosDipAllowance = -1.0
    private var noiseAllowance: Double
    private var referenceCosDip = 1.0
    private var candidateMean = Vector3.zero
    private var candidateTime = 0.0
    private var candidateRotation = 0.0

    public init(normTolerance: Double, dipTolerance: Double, referenceTime: Double,
                noise: Double, newFieldTime: Double, newFieldRotation: Double, tiltCorrelationTime: Double = 2) {
        self.noise = noise
        noiseAllowance = 3 * (3.0).squareRoot() * noise
        self.normTolerance = normTolerance
        self.dipTolerance = dipTolerance
        self.referenceTime = referenceTime
        self.newFieldTime = newFieldTime
        self.newFieldRotation = newFieldRotation
        self.tiltCorrelationTime = tiltCorrelationTime
    }

    /// Variance of the reference dip, rad²: the weighted readings' variance
    /// counted once per tilt correlation time.
    public var referenceDipVariance: Double {
        dipWeight > 0 ? tiltCorrelationTime / dipWeight : .infinity
    }

    /// The tolerance plus three standard deviations of the reference dip.
    private mutating func updateDipAllowance() {
        cosDipAllowance = cos(min(Double.pi, dipTolerance + 3 * referenceDipVariance.squareRoot()))
    }

    /// Variance of the dip of a reading `dt` after the previous one, rad²: the
    /// tilt's, which the readings of a correlation time share, and the
    /// magnetometer's noise, which they average.
    private func readingDipVariance(norm: Double, dt: Double) -> Double {
        let noiseVariance = noise * noise / (norm * norm)
        return max(tiltVariance + noiseVariance * min(1, dt / tiltCorrelationTime), 1e-12)
    }

    /// Reference dip angle in radians (positive down), or nil before the first reading.
    public var referenceDip: Double? { referenceNorm == nil ? nil : asin(referenceSinDip) }

    /// Classifies one reading. `fieldInEarth` is the reading rotated into the
    /// earth frame with the current attitude, `norm` its length, `rotation` the
    /// angle the board turned since the previous reading (rad).
    /// Returns true when the reading matches the reference.
    public mutating func classify(fieldInEarth e: Vector3, norm: Double, rotation: Double, dt: Double) -> Bool {
        guard referenceNorm != nil else {
            adopt(norm: norm, sinDip: -e.z / norm, over: dt)
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
        return abs(norm - ref) <= normTolerance * ref && cosDipError >= cosDipAllowance
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

    /// Folds an accepted reading into the reference: its strength into a
    /// running mean, its dip weighed by how well the tilt was known.
    public mutating func learn(norm: Double, sinDip: Double, dt: Double) {
        guard let ref = referenceNorm else { return adopt(norm: norm, sinDip: sinDip, over: dt) }
        learnedTime += dt
        let k = dt / min(referenceTime, learnedTime)
        referenceNorm = ref + (norm - ref) * k
        let weight = dt / readingDipVariance(norm: norm, dt: dt)
        dipWeight = dipWeight * max(0, 1 - dt / referenceTime) + weight
        if dipWeight > 0 { setSinDip(referenceSinDip + (sinDip - referenceSinDip) * (weight / dipWeight)) }
    }

    /// The tilt the reference's dips were read with has been found off by
    /// `variance` (rad²): the reference dip may be off by as much.
    public mutating func tiltWasOff(by variance: Double) {
        guard dipWeight > 0 else { return }
        dipWeight = tiltCorrelationTime / (referenceDipVariance + variance)
    }

    /// Forgets the reference; the next reading starts a new one.
    public mutating func reset() {
        referenceNorm = nil
        dipWeight = 0
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
        adopt(norm: n, sinDip: -candidateMean.z / n, over: averagedOver)
        learnedTime = averagedOver
        return true
    }

    /// Takes a field seen for `duration` seconds as the reference.
    mutating func adopt(norm: Double, sinDip: Double, over duration: Double) {
        referenceNorm = norm
        setSinDip(sinDip)
        dipWeight = duration / readingDipVariance(norm: norm, dt: duration)
        learnedTime = 0
        candidateTime = 0
    }

    private mutating func setSinDip(_ s: Double) {
        referenceSinDip = min(1, max(-1, s))
        referenceCosDip = (1 - referenceSinDip * referenceSinDip).squareRoot()
    }
}
