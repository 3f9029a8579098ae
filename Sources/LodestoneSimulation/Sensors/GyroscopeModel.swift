#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// How a simulated MEMS gyroscope departs from the true body rate.
///
/// Reads `(1 + scaleError) ⊙ (ω + Earth's rate) + bias(t) + white noise`, rounded
/// to `resolution`. The bias starts at `bias` and walks: each sample adds a
/// normal step of `biasRandomWalk·√dt` per axis; a part that warms after
/// switch-on also drifts (``WarmUp``). White noise is given as a
/// density, so its per-sample σ is `noiseDensity·√rate`, as for a sensor whose
/// bandwidth follows its output rate.
public struct GyroscopeModel: Hashable, Sendable {
    /// rad/s/√Hz
    public var noiseDensity: Double
    /// Turn-on bias, rad/s, sensor frame.
    public var bias: Vector3
    /// Rate random walk, rad/s/√s.
    public var biasRandomWalk: Double
    /// Per-axis scale factor error (0.01 reads 1 % high).
    public var scaleError: Vector3
    /// rad/s; readings are rounded to multiples of it (0: not rounded).
    public var resolution: Double
    /// The Earth turns at 15 °/h; a gyroscope senses it.
    public var sensesEarthRotation: Bool
    /// Full scale, rad/s: a reading beyond it is held at it, as a part's register
    /// holds its largest value (infinity: no limit).
    public var range: Double
    /// How the bias drifts as the part warms after switch-on (nil: it does not).
    public var warmUp: WarmUp?
    /// The part's temperature sensor (nil: it reports none).
    public var thermometer: Thermometer?

    /// A bias that moves by `drift` (rad/s, sensor frame) after switch-on,
    /// approaching it as `1 − e^(−t/timeConstant)`: a part whose offset depends
    /// on its temperature, warming up by its own heat or its enclosure's.
    public struct WarmUp: Hashable, Sendable {
        public var drift: Vector3
        /// s
        public var timeConstant: Double
        /// How far the part warms meanwhile, K: the bias moves with it.
        public var temperatureRise: Double

        public init(drift: Vector3, timeConstant: Double, temperatureRise: Double = 10) {
            precondition(timeConstant > 0)
            self.drift = drift
            self.timeConstant = timeConstant
            self.temperatureRise = temperatureRise
        }

        /// How far the bias has drifted `t` seconds after switch-on, rad/s.
        public func drift(at t: Double) -> Vector3 {
            drift * (1 - exp(-t / timeConstant))
        }

        /// How far the part has warmed `t` seconds after switch-on, K.
        public func warming(at t: Double) -> Double {
            temperatureRise * (1 - exp(-t / timeConstant))
        }
    }

    /// The part's own temperature sensor, as IMUs have one: its reading at
    /// switch-on, °C, and its resolution, K (an MPU-6050's is 1/340 K).
    public struct Thermometer: Hashable, Sendable {
        public var start: Double
        public var resolution: Double

        public init(start: Double = 25, resolution: Double = 1.0 / 340) {
            self.start = start
            self.resolution = resolution
        }
    }

    /// The temperature the part reports `t` seconds after switch-on, °C; nil without a thermometer.
    public func temperature(at t: Double) -> Double? {
        guard let thermometer else { return nil }
        let reading = thermometer.start + (warmUp?.warming(at: t) ?? 0)
        let step = thermometer.resolution
        return step > 0 ? (reading / step).rounded() * step : reading
    }

    public init(noiseDensity: Double = 0, bias: Vector3 = .zero, biasRandomWalk: Double = 0, scaleError: Vector3 = .zero,
                resolution: Double = 0, sensesEarthRotation: Bool = false, range: Double = .infinity,
                warmUp: WarmUp? = nil, thermometer: Thermometer? = nil) {
        self.noiseDensity = noiseDensity
        self.bias = bias
        self.biasRandomWalk = biasRandomWalk
        self.scaleError = scaleError
        self.resolution = resolution
        self.sensesEarthRotation = sensesEarthRotation
        self.range = range
        self.warmUp = warmUp
        self.thermometer = thermometer
    }

    /// A perfect gyroscope.
    public static let ideal = GyroscopeModel()

    /// A low-cost MEMS part: 0.015 °/s/√Hz (about three times an MPU-6050's
    /// datasheet figure), a 0.0005 °/s/√s bias walk, Earth's rate, resolution
    /// 1e-5 rad/s. No turn-on bias: scenarios choose it.
    public static let typical = GyroscopeModel(
        noiseDensity: 0.015 * Angle.radiansPerDegree, biasRandomWalk: 0.0005 * Angle.radiansPerDegree,
        resolution: 1e-5, sensesEarthRotation: true)
}
