/// Smooths gravity and field together, heavily at rest and lightly in motion.
///
/// Both body-frame vectors pass through one first-order low-pass whose cutoff
/// rises with the rotation rate (the idea of the "1€ filter", Casiez et al.,
/// CHI 2012). Filtering vectors rather than angles makes it correct across
/// 0/360 by construction. The rate is measured on the *filtered* up and east
/// directions, as the body-frame rotation their steps show, averaged with its sign
/// as the 1€ filter averages its derivative: a turn moves them one way, noise and
/// vibration every way, and cancel. (Averaging the steps' magnitude instead, noise
/// opened the filter, the opened filter let more noise through, and a per-sample tilt
/// noise near ``Settings/maximumLag`` opened it fully.)
///
/// With cutoff `f = minimumCutoff + β·ω`, a steady turn at ω rad/s lags by
/// `ω / (2π f)` radians, which never exceeds `1 / (2π β)`: ``Settings/maximumLag``
/// sets β so the lag stays bounded however fast the board turns.
@frozen
public struct AdaptiveSmoother: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Cutoff at rest in Hz. 0.25 Hz averages ~1.3 s of samples: a noisy
        /// hold settles well inside 2 s.
        public var minimumCutoff: Double
        /// Upper bound of the lag in degrees during fast turns.
        public var maximumLag: Double
        /// Cutoff of the rotation-rate estimate in Hz.
        public var rateCutoff: Double
        /// A gap longer than this (seconds) restarts the filter from the next sample.
        public var maximumGap: Double
        /// Linear acceleration, m/s², at which a sample counts half as much for
        /// gravity: a specific force far from 1 g is mostly motion, not gravity.
        public var accelerationScale: Double

        public init(minimumCutoff: Double = 0.25, maximumLag: Double = 3, rateCutoff: Double = 2, maximumGap: Double = 1,
                    accelerationScale: Double = 1) {
            self.minimumCutoff = minimumCutoff
            self.maximumLag = maximumLag
            self.rateCutoff = rateCutoff
            self.maximumGap = maximumGap
            self.accelerationScale = accelerationScale
        }
    }

    public let settings: Settings
    let minimumOmega: Double // 2π·minimumCutoff
    let betaOmega: Double    // 2π·β, per rad/s
    let rateTau: Double // 1 / (2π·rateCutoff)
    /// False for the pass-through filter (an infinite cutoff).
    let smooths: Bool
    let gravityScale: Double // 1 / (2g · accelerationScale)
    static let gravity2 = 9.80665 * 9.80665

    /// Filtered gravity (specific force) and field, body frame.
    public private(set) var gravity: Vector3 = .zero
    public private(set) var field: Vector3 = .zero
    /// Unit up and east directions of the filtered vectors, body frame.
    public private(set) var up: Vector3 = .zero
    public private(set) var east: Vector3 = .zero
    /// Estimated rotation rate in rad/s.
    public private(set) var rotationRate: Double = 0
    /// How fast the up and east directions move, each step counted by its size, rad/s:
    /// the rotation, a sway's that cancels in `rotationRate` and what noise and vibration
    /// move them by. Not for the cutoff, but for the accuracy: the smoothing lags every
    /// sway, and a board this agitated may be accelerating.
    public private(set) var agitation: Double = 0
    /// The low-passed body-frame rotation vector, rad/s.
    private var rotationMean: Vector3 = .zero
    /// The rotation and the directions' movement measured on the last step, not yet averaged.
    private var pendingRotation: Vector3 = .zero
    private var pendingAgitation = 0.0
    /// Factors of the last time step, kept while the step stays the same.
    private var factorsDt = 0.0
    private var inverseDt = 0.0
    private var rateFactor = 0.0
    /// The smoothing factor of the last step (1 = no smoothing).
    public private(set) var lastAlpha: Double = 1
    public private(set) var isInitialized = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
        minimumOmega = 2 * Double.pi * settings.minimumCutoff
        // β = 1 / (2π · lag) Hz per rad/s, so 2πβ = 1 / lag.
        betaOmega = 1 / (settings.maximumLag * Angle.radiansPerDegree)
        rateTau = 1 / (2 * Double.pi * settings.rateCutoff)
        smooths = minimumOmega.isFinite
        gravityScale = 1 / (2 * 9.80665 * settings.accelerationScale)
    }

    /// A pass-through filter: every step takes the new sample as is.
    public static var passThrough: AdaptiveSmoother {
        AdaptiveSmoother(settings: Settings(minimumCutoff: .infinity))
    }

    /// The current cutoff in rad/s (2π × Hz); infinite when smoothing is off.
    public var cutoff: Double { cutoff(atRate: rotationRate) }

    /// The cutoff in rad/s while the board turns at `rate` rad/s: a steady turn lags by 1/cutoff s.
    public func cutoff(atRate rate: Double) -> Double { minimumOmega + betaOmega * rate }

    public mutating func reset() {
        isInitialized = false
        restartRate()
    }

    private mutating func restartRate() {
        rotationRate = 0
        agitation = 0
        rotationMean = .zero
        pendingRotation = .zero
        pendingAgitation = 0
    }

    /// Maps the smoothed field through `map` (an affine map: the change from one
    /// magnetometer calibration to another). A low-pass of vectors commutes with
    /// an affine map whose weights sum to one, so this is the state the filter
    /// would have had with the new calibration, without starting again.
    public mutating func transformField(_ map: (Vector3) -> Vector3) {
        guard isInitialized else { return }
        field = map(field)
        isInitialized = directions()
    }

    /// Feeds one sample taken `dt` seconds after the previous one.
    /// A non-positive `dt` leaves the state as it is.
    public mutating func update(gravity a: Vector3, field m: Vector3, dt: Double) {
        guard isInitialized, dt <= settings.maximumGap else {
            gravity = a
            field = m
            lastAlpha = 1
            isInitialized = directions()
            restartRate()
            return
        }
        guard dt > 0 else { return }
        if dt != factorsDt {
            // Sampled data has a fixed step: these divisions run once, not per sample.
            factorsDt = dt
            inverseDt = 1 / dt
            rateFactor = dt / (dt + rateTau)
        }
        if smooths {
            // α = x / (1 + x), x = dt·ω_c: the discrete first-order low-pass. Gravity
            // also gets the weight 1 / (1 + Δ²), Δ = (|a|² − g²)/(2g·scale) ≈ (|a| − g)/scale:
            // one division serves both.
            let x = dt * cutoff
            let departure = (a.squaredLength - Self.gravity2) * gravityScale
            let w = 1 + departure * departure
            let inverse = 1 / ((1 + x) * w)
            let alpha = x * w * inverse
            gravity += (a - gravity) * (x * inverse)
            field += (m - field) * alpha
            lastAlpha = alpha
        } else {
            gravity = a
            field = m
        }
        // The rotation measured on the previous step enters now, one sample late: this
        // step's cutoff then does not wait for this step's directions, which
        // shortens the chain of dependent square roots and divisions.
        rotationMean += (pendingRotation - rotationMean) * rateFactor
        rotationRate = rotationMean.length
        agitation += (pendingAgitation - agitation) * rateFactor
        let oldUp = up, oldEast = east
        guard directions() else { return }
        pendingRotation = Self.rotation(fromUp: oldUp, east: oldEast, toUp: up, east: east) * inverseDt
        pendingAgitation = ((up - oldUp).squaredLength + (east - oldEast).squaredLength).squareRoot() * inverseDt
    }

    /// The body-frame rotation, radians, from one orthonormal frame to the next: a vector
    /// fixed in the room steps by `Δu = −θ × u`, so `Σ u × Δu = −2θ` over the three axes.
    @inline(__always)
    static func rotation(fromUp up0: Vector3, east east0: Vector3, toUp up1: Vector3, east east1: Vector3) -> Vector3 {
        let north0 = up0.cross(east0), north1 = up1.cross(east1)
        return (up1.cross(up0) + east1.cross(east0) + north1.cross(north0)) * 0.5
    }

    /// Recomputes `up` and `east`; false when they are undefined.
    @inline(__always)
    mutating func directions() -> Bool {
        // east ∥ field × gravity; both lengths from independent roots, then one division.
        let e = field.cross(gravity)
        let g = gravity.squaredLength.squareRoot(), l = e.squaredLength.squareRoot()
        let product = g * l
        guard product > 0 else { return false }
        let inverse = 1 / product
        up = gravity * (l * inverse)
        east = e * (g * inverse)
        return true
    }
}
