/// The gyro bias widening that giving way to gravity asks for, held back while
/// the board is steady enough for rest windows until two of them confirm it.
///
/// When gravity has contradicted the tilt for seconds, the cause may be a bias
/// that stepped, or a board carried slowly to and fro (0.05–0.2 Hz), whose
/// acceleration the average's length cannot show. Widened at once, the bias
/// let the next rest window in, and a translation's windows read its
/// acceleration's drift as 2–7 °/s of rotation. A stepped bias shows in every
/// window alike; a translation's drift changes from window to window. So the
/// widening waits for two windows, no closer than one window's length, whose
/// horizontal bias agrees within three standard deviations; if none agree
/// within ``Settings/biasDoubtTime`` the doubt lapses and the bias stays.
/// Without rest windows (a tumble) the widening is applied at once, as before.
struct BiasConfirmation: Sendable {
    /// The bias's widening, as variances along two body directions.
    struct Widening: Sendable {
        var first: Vector3, firstVariance: Double
        var second: Vector3, secondVariance: Double

        /// Whether a bias `change` along `axis` lies within three standard deviations
        /// of this widening and the window's `variance`: what the give-way asked for.
        func allows(_ change: Double, along axis: Vector3, variance: Double) -> Bool {
            let a = axis.dot(first), b = axis.dot(second)
            let asked = firstVariance * a * a + secondVariance * b * b
            return change * change < BiasConfirmation.agreementSquared * (asked + variance)
        }
    }

    /// What the caller does with a steady window's horizontal bias.
    enum Verdict {
        /// No doubt: the window corrects the bias as usual.
        case use
        /// Kept for comparison: the window does not correct the horizontal bias.
        case hold
        /// Two windows agree: widen the bias so, then use the window.
        case confirmed(Widening)
    }

    /// How far apart two windows must be not to share samples, s.
    let windowLength: Double
    /// How long the windows may take to agree, s (``AttitudeFusion/Settings/biasDoubtTime``).
    let doubtTime: Double
    private var widening: Widening?
    private var doubtedAt = 0.0
    private var held: (bias: Vector3, time: Double, variance: Double)?

    init(windowLength: Double, doubtTime: Double) {
        self.windowLength = windowLength
        self.doubtTime = doubtTime
    }

    /// A widening waits for the windows to confirm it.
    var isDoubting: Bool { widening != nil }

    /// Giving way at `now` asked for `widening`; the windows are to confirm it.
    mutating func doubt(_ widening: Widening, now: Double) {
        self.widening = widening
        doubtedAt = now
        held = nil
    }

    /// A steady window's horizontal bias along the horizontal body directions
    /// `axes` (the rest of it unknown): its `innovation` beyond the `estimate`,
    /// with `variance` per axis.
    mutating func judge(innovation: (Double, Double), estimate: (Double, Double), axes: (Vector3, Vector3),
                        variance: Double, now: Double) -> Verdict {
        guard let asked = widening else { return .use }
        let bias = (innovation.0 + estimate.0, innovation.1 + estimate.1)
        guard now - doubtedAt <= doubtTime else {
            reset()
            return .use
        }
        if let h = held {
            guard now - h.time >= windowLength else { return .hold } // overlapping windows share their samples
            let d0 = axes.0.dot(h.bias) - bias.0, d1 = axes.1.dot(h.bias) - bias.1
            if d0 * d0 + d1 * d1 < Self.agreementSquared * (h.variance + variance),
               asked.allows(innovation.0, along: axes.0, variance: variance),
               asked.allows(innovation.1, along: axes.1, variance: variance) {
                reset()
                return .confirmed(asked)
            }
        }
        held = (axes.0 * bias.0 + axes.1 * bias.1, now, variance)
        return .hold
    }

    mutating func reset() {
        widening = nil
        held = nil
    }

    /// Three standard deviations, squared.
    static let agreementSquared = 9.0
}
