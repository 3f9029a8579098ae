/// How far the accelerometer has moved the estimate's tilt, beyond what the
/// gyro showed, while the average's length showed an acceleration that could
/// have caused the move (``GravityAverage/explainableTilt(sampleVariance:dt:)``).
///
/// In a vehicle's long turn the filter takes part of the centripetal
/// acceleration for tilt: slowly, through its tilt corrections and through the
/// gyro bias they shift, so that its disagreement with the accelerometer stays
/// small while its tilt goes wrong. Nothing at the time tells that from a tilt
/// the bias had hidden, so the move is not undone; it widens `headingAccuracy`
/// (``variance``) until it is forgotten, over about the time the filter takes
/// to level again in motion.
struct UnconfirmedTilt: Sendable {
    /// The move, rad about east and north (z is 0).
    private(set) var tilt = Vector3.zero
    /// The gyro bias as it was about `memory` ago: the estimate turned since
    /// by the bias's change is a move the gyro did not show.
    private var biasReference = Vector3.zero
    let memory: Double

    init(memory: Double) {
        self.memory = memory
    }

    /// Records one correction: its change of `angle` (earth frame, without the
    /// Earth's rotation), the `gyroBias` after it, the body → earth rotation
    /// `r`, and whether an acceleration could explain a move now.
    mutating func record(angle: Vector3, gyroBias: Vector3, rotation r: Matrix3, interval: Double, accelerating: Bool) {
        let keep = max(0, 1 - interval / memory)
        let moved = angle + r * (biasReference - gyroBias) * interval
        tilt = tilt * keep + (accelerating ? Vector3(moved.x, moved.y, 0) : .zero)
        biasReference += (gyroBias - biasReference) * (1 - keep)
    }

    /// The tilt variance the move may have left, rad².
    var variance: Double { tilt.squaredLength }

    /// The estimate started again (levelled from the accelerometer at rest or after a gap).
    mutating func restart(gyroBias: Vector3) {
        tilt = .zero
        biasReference = gyroBias
    }
}
