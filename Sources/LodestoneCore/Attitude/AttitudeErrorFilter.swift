/// The Kalman filter behind ``AttitudeFusion``: seven error states, the small
/// rotation that takes the estimated attitude to the truth, about the earth
/// axes (rad), the gyro-bias error in the body frame (rad/s), and the error of
/// the compass (rad).
///
/// It is an error-state filter: after every update the estimated errors are
/// applied to the attitude, the bias and the compass-error estimate, and the
/// states return to zero, so only the covariance is kept.
///
/// Model: a bias error is fixed in the body, so it turns the estimate about
/// the earth axes at `θ' = −R·δb` (R: body → earth). As the board turns, one
/// body-frame bias error moves from one earth axis to another; the covariance
/// follows it, so a bias learned from the tilt while the board lay one way is
/// still known (and its effect on the heading counted) after it turned. The
/// angle also takes white gyro noise, and the bias performs a random walk.
///
/// The compass error is what a calibrated magnetometer's heading is off by
/// beyond its noise: residual hard and soft iron, a local deviation of the
/// field. It depends on the attitude, so it persists while the board is still
/// and changes as it turns: a first-order Markov process whose correlation
/// ends with rotation (see ``AttitudeFusion``). Held as a state, it makes the
/// filter honest about what many readings at one attitude can tell: they share
/// one error, and only turning reveals it.
///
/// Where the samples carry the gyro's temperature, three more states: the
/// error of the bias's temperature slope, per body axis (rad/s per K). A part's
/// offset follows its temperature, so as it warms by `ΔT` the bias error moves
/// by `ΔT·δk`: what the readings teach of the bias while the temperature moves
/// teaches the slope, and the next warming is predicted instead of lagged.
/// Without a temperature they stay zero and cost nothing.
///
/// A measurement is any linear combination `a·θ + b·δb + c·e`: the tilt from
/// an averaged accelerometer depends on the bias through the average's memory,
/// a gyro at rest measures `δb` alone, the compass `θ_up + e`.
@frozen
public struct AttitudeErrorFilter: Hashable, Sendable {
    /// Covariance of the angle errors (earth axes), rad².
    public var angle: Matrix3
    /// Covariance of angle errors (rows, earth axes) and bias errors (columns, body axes), rad²/s.
    public var cross: Matrix3
    /// Covariance of the bias errors (body axes), (rad/s)².
    public var bias: Matrix3
    /// Variance of the compass error, rad², and its covariance with the angle
    /// errors (earth axes, rad²) and the bias errors (body axes, rad²/s).
    public var compass: Double
    public var compassAngle: Vector3
    public var compassBias: Vector3
    /// Covariance of the slope errors (body axes), (rad/s/K)², and theirs with
    /// the angle errors (rows, earth axes), the bias errors (rows, body axes)
    /// and the compass error. Zero until ``startTrackingSlope(variance:)``.
    public var slope: Matrix3
    public var slopeAngle: Matrix3
    public var slopeBias: Matrix3
    public var slopeCompass: Vector3
    /// Whether the slope is a state (the samples carry a temperature).
    public var tracksSlope: Bool

    /// The estimated errors from one measurement: apply `angle` as the earth-frame
    /// rotation `rotation(angle) ∘ attitude`, add `bias` to the bias estimate
    /// and `compass` to the compass-error estimate.
    public struct Correction: Hashable, Sendable {
        public var angle: Vector3
        public var bias: Vector3
        public var compass: Double
        /// Add to the bias's temperature slope estimate, rad/s/K.
        public var slope: Vector3

        @inlinable
        public init(angle: Vector3 = .zero, bias: Vector3 = .zero, compass: Double = 0, slope: Vector3 = .zero) {
            self.angle = angle
            self.bias = bias
            self.compass = compass
            self.slope = slope
        }

        @inlinable
        public static func += (a: inout Correction, b: Correction) {
            a.angle += b.angle
            a.bias += b.bias
            a.compass += b.compass
            a.slope += b.slope
        }
    }

    @inlinable
    public init(angleVariance: Vector3, bias: Matrix3, compassVariance: Double = 0) {
        angle = Matrix3(diagonal: angleVariance)
        cross = Matrix3(rows: .zero, .zero, .zero)
        self.bias = bias
        compass = compassVariance
        compassAngle = .zero
        compassBias = .zero
        slope = .zero
        slopeAngle = .zero
        slopeBias = .zero
        slopeCompass = .zero
        tracksSlope = false
    }

    /// Makes the bias's temperature slope a state, each axis with prior `variance`, (rad/s/K)².
    @inlinable
    public mutating func startTrackingSlope(variance: Double) {
        guard !tracksSlope else { return }
        tracksSlope = true
        slope = Matrix3(diagonal: Vector3(1, 1, 1) * variance)
    }

    /// Keeps what `other` knew of the slope, and of the bias with it (a restart keeps the bias).
    @inlinable
    public mutating func keepSlope(of other: AttitudeErrorFilter) {
        guard other.tracksSlope else { return }
        tracksSlope = true
        slope = other.slope
        slopeBias = other.slopeBias
    }

    /// Propagates over `dt` seconds while the body → earth rotation is `r`.
    /// `angleNoise` is the angle random-walk intensity about each earth axis
    /// (rad²/s), `biasNoise` the bias random-walk intensity ((rad/s)²/s).
    /// The compass error keeps the fraction `compassMemory` of itself and
    /// takes `compassNoise` (rad²) of new variance.
    @inlinable
    public mutating func predict(rotation r: Matrix3, dt: Double, angleNoise: Vector3, biasNoise: Double,
                                 compassMemory: Double = 1, compassNoise: Double = 0) {
        predict(Growth(rotationIntegral: r * dt, time: dt, angleNoise: angleNoise * dt, biasNoise: biasNoise * dt,
                       compassMemory: compassMemory, compassNoise: compassNoise))
    }

    /// What the errors did between two corrections: the integral of the body →
    /// earth rotation over the time (s), the angle noise taken about each earth
    /// axis (rad²) and by the bias ((rad/s)², per axis), and how much of the
    /// compass error is left and how much new came; the part's warming (K),
    /// and the slope's new variance ((rad/s/K)², per axis).
    @frozen
    public struct Growth: Hashable, Sendable {
        public var rotationIntegral: Matrix3
        public var time: Double
        public var angleNoise: Vector3
        public var biasNoise: Double
        public var compassMemory: Double
        public var compassNoise: Double
        public var warming = 0.0
        public var slopeNoise = 0.0

        @inlinable
        public init(rotationIntegral: Matrix3 = Matrix3(rows: .zero, .zero, .zero), time: Double = 0,
                    angleNoise: Vector3 = .zero, biasNoise: Double = 0, compassMemory: Double = 1,
                    compassNoise: Double = 0) {
            self.rotationIntegral = rotationIntegral
            self.time = time
            self.angleNoise = angleNoise
            self.biasNoise = biasNoise
            self.compassMemory = compassMemory
            self.compassNoise = compassNoise
        }
    }

    /// Propagates over an interval: P ← F·P·Fᵀ + Q with F = [I, −S, 0; 0, I, 0; 0, 0, φ],
    /// S the rotation integral. Accurate while the bias error's effect stays
    /// small over the interval (a few tens of milliseconds between corrections).
    @inlinable
    public mutating func predict(_ g: Growth) {
        let s = g.rotationIntegral
        let b0 = bias.row0, b1 = bias.row1, b2 = bias.row2   // symmetric
        // y = S·Pbb/2, row by row.
        let y0 = (b0 * s.row0.x + b1 * s.row0.y + b2 * s.row0.z) * 0.5
        let y1 = (b0 * s.row1.x + b1 * s.row1.y + b2 * s.row1.z) * 0.5
        let y2 = (b0 * s.row2.x + b1 * s.row2.y + b2 * s.row2.z) * 0.5
        // w = Pab − y; z = w·Sᵀ; Paa −= z + zᵀ; Pab = w − y.
        let w0 = cross.row0 - y0, w1 = cross.row1 - y1, w2 = cross.row2 - y2
        let z00 = w0.dot(s.row0), z01 = w0.dot(s.row1), z02 = w0.dot(s.row2)
        let z10 = w1.dot(s.row0), z11 = w1.dot(s.row1), z12 = w1.dot(s.row2)
        let z20 = w2.dot(s.row0), z21 = w2.dot(s.row1), z22 = w2.dot(s.row2)
        let a01 = angle.row0.y - (z01 + z10)
        let a02 = angle.row0.z - (z02 + z20)
        let a12 = angle.row1.z - (z12 + z21)
        angle = Matrix3(angle.row0.x + g.angleNoise.x - 2 * z00, a01, a02,
                        a01, angle.row1.y + g.angleNoise.y - 2 * z11, a12,
                        a02, a12, angle.row2.z + g.angleNoise.z - 2 * z22)
        cross = Matrix3(rows: w0 - y0, w1 - y1, w2 - y2)
        bias.row0.x += g.biasNoise
        bias.row1.y += g.biasNoise
        bias.row2.z += g.biasNoise
        // The compass row: Pca ← φ·(Pca − S·Pcb), Pcb ← φ·Pcb, Pcc ← φ²·Pcc + q.
        let m = g.compassMemory
        compassAngle = (compassAngle - s * compassBias) * m
        compassBias = compassBias * m
        compass = compass * m * m + g.compassNoise
        if tracksSlope { predictSlope(s, g) }
    }

    /// The slope's rows through the same step, then the bias's move with the
    /// warming: δb ← δb + ΔT·δk.
    @inlinable
    mutating func predictSlope(_ s: Matrix3, _ g: Growth) {
        slopeAngle = slopeAngle - s * slopeBias
        slopeCompass = slopeCompass * g.compassMemory
        let t = g.warming
        if t != 0 {
            cross = cross + slopeAngle * t
            compassBias += slopeCompass * t
            bias = bias + (slopeBias + slopeBias.transposed) * t + slope * (t * t)
            slopeBias = slopeBias + slope * t
        }
        slope.row0.x += g.slopeNoise
        slope.row1.y += g.slopeNoise
        slope.row2.z += g.slopeNoise
    }

    /// Fuses a measurement of the bias error along body axis `axis` (0 x, 1 y,
    /// 2 z), e.g. the gyro reading at rest, with variance `noise`.
    @inlinable
    public mutating func measureBias(axis: Int, innovation: Double, noise: Double) -> Correction {
        let pa = Vector3(cross.row0[axis], cross.row1[axis], cross.row2[axis])
        let pb = Vector3(bias.row0[axis], bias.row1[axis], bias.row2[axis])
        let pk = tracksSlope ? Vector3(slopeBias.row0[axis], slopeBias.row1[axis], slopeBias.row2[axis]) : .zero
        return update(pa: pa, pb: pb, pc: compassBias[axis], pk: pk, s: pb[axis] + noise, innovation: innovation)
    }

    /// Fuses a measurement of the bias error along the body direction `d`
    /// (unit length), i.e. of `d·δb`, with variance `noise`.
    @inlinable
    public mutating func measureBias(along d: Vector3, innovation: Double, noise: Double) -> Correction {
        let pb = bias * d
        let pk = tracksSlope ? slopeBias.transposedTimes(d) : .zero
        return update(pa: cross * d, pb: pb, pc: compassBias.dot(d), pk: pk, s: d.dot(pb) + noise,
                      innovation: innovation)
    }

    /// Fuses a compass reading: `innovation` measures the heading error (the
    /// angle about up) plus the compass error, with white variance `noise`.
    /// It is a Schmidt ("consider") update for the tilt: the angle errors about
    /// east and north are neither corrected nor counted as better known, so
    /// the magnetometer corrects the heading, the bias and the compass-error
    /// estimate, never the tilt.
    @inlinable
    public mutating func measureHeading(innovation: Double, noise: Double) -> Correction {
        // P·Hᵀ for H = [0 0 1 | 0 0 0 | 1].
        let pa = angle.column2 + compassAngle, pb = cross.row2 + compassBias
        let pc = compassAngle.z + compass
        let s = pa.z + pc + noise
        guard s > 0 else { return Correction() }
        let ka = pa * (1 / s), kb = pb * (1 / s), kc = pc / s
        // Only the entries that involve the heading, the bias or the compass change.
        let up = angle.row2 - pa * ka.z
        angle.row2 = up
        angle.row0.z = up.x
        angle.row1.z = up.y
        cross = cross - Matrix3.outer(pa, kb)
        bias = Self.subtractingSymmetric(bias, pb, kb)
        compassAngle = compassAngle - pa * kc
        compassBias = compassBias - pb * kc
        compass -= pc * kc
        var c = Correction(angle: Vector3(0, 0, ka.z * innovation), bias: kb * innovation, compass: kc * innovation)
        if tracksSlope {
            c.slope = updateSlope(pa: pa, pb: pb, pc: pc, pk: slopeAngle.row2 + slopeCompass, s: s,
                                  innovation: innovation)
        }
        return c
    }

    /// The share of a heading reading's innovation that
    /// ``measureHeading(innovation:noise:)`` moves the heading by, for a reading of variance `noise`.
    @inlinable
    public func headingGain(noise: Double) -> Double {
        let s = compassHeadingVariance + noise
        return s > 0 ? (angle.row2.z + compassAngle.z) / s : 0
    }

    /// The larger of the variances of the tilt about east and north, rad².
    @inlinable
    public var largestTiltVariance: Double { max(angle.row0.x, angle.row1.y) }

    /// The variance of the heading as the compass shows it, `θ_up + e`, rad².
    @inlinable
    public var compassHeadingVariance: Double { angle.row2.z + 2 * compassAngle.z + compass }

    /// The larger of the predicted variances of the two tilt readings of
    /// ``measureTilt(east:north:eastLag:northLag:noise:)``, rad².
    @inlinable @inline(__always) // out of line, the whole filter was copied to call it
    public func tiltVariance(eastLag: Vector3, northLag: Vector3) -> Double {
        let e = angle.row0.x + 2 * cross.row0.dot(eastLag) + eastLag.dot(bias * eastLag)
        let n = angle.row1.y + 2 * cross.row1.dot(northLag) + northLag.dot(bias * northLag)
        return max(e, n)
    }

    /// Fuses a tilt reading: `east` and `north` measure `θ_east + eastLag·δb`
    /// and `θ_north + northLag·δb` (rad), each with variance `noise`; the
    /// innovations are taken from the state before the reading.
    @inlinable
    public mutating func measureTilt(east: Double, north: Double, eastLag: Vector3, northLag: Vector3,
                                     noise: Double, teachesSlope: Bool = true) -> Correction {
        let paE = angle.column0 + cross * eastLag, pbE = cross.row0 + bias * eastLag
        var paN = angle.column1 + cross * northLag, pbN = cross.row1 + bias * northLag
        let pcE = compassAngle.x + compassBias.dot(eastLag)
        var pcN = compassAngle.y + compassBias.dot(northLag)
        var pkE = Vector3.zero, pkN = Vector3.zero
        if tracksSlope {
            pkE = slopeAngle.row0 + slopeBias.transposedTimes(eastLag)
            pkN = slopeAngle.row1 + slopeBias.transposedTimes(northLag)
        }
        let sE = paE.x + eastLag.dot(pbE) + noise
        // The north reading as predicted after the east one was fused.
        let shared = (paE.y + northLag.dot(pbE)) / sE
        paN = paN - paE * shared
        pbN = pbN - pbE * shared
        pcN -= pcE * shared
        pkN = pkN - pkE * shared
        var c = update(pa: paE, pb: pbE, pc: pcE, pk: pkE, s: sE, innovation: east, teachesSlope: teachesSlope)
        c += update(pa: paN, pb: pbN, pc: pcN, pk: pkN, s: paN.y + northLag.dot(pbN) + noise,
                    innovation: north - shared * east, teachesSlope: teachesSlope)
        return c
    }

    /// The Kalman update for a scalar measurement with `P·Hᵀ = (pa, pb, pc, pk)` and
    /// innovation variance `s`.
    @inlinable
    mutating func update(pa: Vector3, pb: Vector3, pc: Double, pk: Vector3, s: Double, innovation: Double,
                         teachesSlope: Bool = true) -> Correction {
        guard s > 0 else { return Correction() }
        let inverse = 1 / s
        let ka = pa * inverse, kb = pb * inverse, kc = pc * inverse
        angle = Self.subtractingSymmetric(angle, pa, ka)
        cross = cross - Matrix3.outer(pa, kb)
        bias = Self.subtractingSymmetric(bias, pb, kb)
        compassAngle = compassAngle - pa * kc
        compassBias = compassBias - pb * kc
        compass -= pc * kc
        var c = Correction(angle: ka * innovation, bias: kb * innovation, compass: kc * innovation)
        if tracksSlope {
            c.slope = updateSlope(pa: pa, pb: pb, pc: pc, pk: pk, s: s, innovation: innovation, teaches: teachesSlope)
        }
        return c
    }

    /// The slope's part of an update: its covariances less what the
    /// measurement taught, and its correction.
    @inlinable
    mutating func updateSlope(pa: Vector3, pb: Vector3, pc: Double, pk: Vector3, s: Double, innovation: Double,
                              teaches: Bool = true) -> Vector3 {
        let kk = pk * (1 / s)
        slopeAngle = slopeAngle - Matrix3.outer(pa, kk)
        slopeBias = slopeBias - Matrix3.outer(pb, kk)
        slopeCompass = slopeCompass - kk * pc
        guard teaches else { return .zero }
        slope = Self.subtractingSymmetric(slope, pk, kk)
        return kk * innovation
    }

    /// Forgets what is known of the compass error (the calibration changed):
    /// its variance becomes `variance`, correlated with nothing.
    @inlinable
    public mutating func forgetCompassError(variance: Double) {
        compass = variance
        compassAngle = .zero
        compassBias = .zero
        slopeCompass = .zero
    }

    /// Adds `variance` to the bias along the body direction `d` (unit length).
    @inlinable
    public mutating func widenBias(along d: Vector3, variance: Double) {
        bias = bias + Matrix3.outer(d * variance, d)
    }

    /// The bias along body direction `d` (unit length) may have been off by
    /// `variance` for the last `time` seconds, turning the estimate about the
    /// earth axis `e` (unit length) all that while: bias and angle widen
    /// together, correlated as `θ = −time·δb` makes them, so that a reading
    /// of the bias corrects the angle it turned as well.
    @inlinable
    public mutating func widenBias(along d: Vector3, variance: Double, turning e: Vector3, for time: Double) {
        widenBias(along: d, variance: variance)
        angle = angle + Matrix3.outer(e * (variance * time * time), e)
        cross = cross + Matrix3.outer(e * (-variance * time), d)
    }

    /// Adds a rotation the gyro may have missed, `rotation` (rad, earth axes), with its
    /// size as its 1σ and its direction known: the attitude error's covariance grows
    /// by `rotation·rotationᵀ`, so a reading that shows part of it shows the rest.
    @inlinable
    public mutating func widenAngle(byMissed rotation: Vector3) {
        angle = angle + Matrix3.outer(rotation, rotation)
    }

    /// `m − u·vᵀ` for symmetric `m` and parallel `u`, `v`: six products, mirrored.
    @inlinable
    static func subtractingSymmetric(_ m: Matrix3, _ u: Vector3, _ v: Vector3) -> Matrix3 {
        let xy = m.row0.y - u.x * v.y, xz = m.row0.z - u.x * v.z, yz = m.row1.z - u.y * v.z
        return Matrix3(m.row0.x - u.x * v.x, xy, xz,
                       xy, m.row1.y - u.y * v.y, yz,
                       xz, yz, m.row2.z - u.z * v.z)
    }
}
