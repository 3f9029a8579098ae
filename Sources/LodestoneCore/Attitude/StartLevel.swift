/// Gravity's direction for a start, averaged over the start's first moments.
///
/// One reading of the accelerometer holds whatever vibration the board is on
/// whole: 1 m/s² of an engine's vibration tilts it by 6°, and the heading by
/// twice that at a dip of 60°. The filter then spends its first seconds
/// correcting a tilt it took as known, and the compass heading moves as the
/// tilt does, which it reads as gyro bias about up. So the start levels from
/// the specific force averaged over ``AttitudeFusion/Settings/startLevelTime``,
/// or until the gyro shows gravity turned by twice the accelerometer's own
/// error (the mean lags by half the turn). The readings are not turned by the
/// gyro: at switch-on its bias is unknown, and a still board's gyro shows only
/// that. A hand's motion barely moves in the time: a board moved from
/// switch-on starts as it would from one reading.
struct StartLevel: Sendable {
    /// The mean specific force, m/s², in the body frame.
    private(set) var mean = Vector3.zero
    /// The time the readings span, s.
    private(set) var time = 0.0
    /// How far the gyro shows gravity turned over that time, rad.
    private(set) var turn = 0.0
    private var count = 0.0

    /// Whether a start is being gathered.
    var isGathering: Bool { count > 0 }

    /// Adds a reading `a` taken `dt` after the previous one, the gyro showing
    /// `rate` (rad/s) meanwhile.
    mutating func add(acceleration a: Vector3, rate: Vector3, dt: Double) {
        if count > 0 { turn += rate.cross(mean.normalized).length * dt }
        count += 1
        mean += (a - mean) / count
        time += dt
    }
}
