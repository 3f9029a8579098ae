/// The gyro part's temperature as the fusion uses it: averaged, its jumps
/// bounded, and how far it moved since the fusion last took it.
///
/// A MEMS gyro's offset follows its die temperature: data sheets give 0.01–0.2
/// °/s per kelvin, so a part warming by ten kelvin after switch-on, or a board
/// put in the sun, moves by a degree per second within minutes. A bias random
/// walk that allowed for that would leave the bias loose all the time; the
/// temperature says when it moves. ``AttitudeErrorFilter`` holds the bias's
/// slope about each body axis as a state, with ``coefficient`` as its prior:
/// a warming of ΔT moves the bias by the slope learned so far, and loosens it
/// by what is not known of the slope, and what the readings then teach of the
/// bias teaches the slope. Each axis on its own: gravity teaches the
/// horizontal ones within seconds, the compass the one about up only through
/// the heading's slow drift. The slope's variance grows by its prior over
/// every ``slopeSpan``, since a part's offset curve bends.
///
/// The temperature is averaged over ``smoothingTime`` first, since a sensor's
/// quantization and noise (tenths of a kelvin) are no warming; and a reading
/// more than ``largestJump`` from that average counts as that far, since a die
/// warms by a few kelvin a minute and a bad bus read (an I²C glitch, all ones)
/// would otherwise move the bias by degrees per second. Without a temperature
/// nothing changes.
public struct TemperatureBiasDrift: Hashable, Sendable {
    /// How much the bias may move per kelvin, rad/s (1σ, about each axis): the slope's prior.
    public let coefficient: Double
    /// Time constant of the temperature's average, s.
    public let smoothingTime: Double
    /// The fastest a part is taken to warm, K/s.
    public static let fastestWarming = 1.0
    /// Over how many kelvin a slope holds, K.
    public static let slopeSpan = 10.0
    /// The most a reading may differ from the average, K: a warming at
    /// ``fastestWarming`` still moves the average as fast.
    public var largestJump: Double { Self.fastestWarming * smoothingTime }
    /// The averaged temperature, °C; nil until one is given.
    public private(set) var temperature: Double?
    /// The average when the warming was last taken, °C.
    private var taken: Double?

    public init(coefficient: Double, smoothingTime: Double = 5) {
        self.coefficient = coefficient
        self.smoothingTime = smoothingTime
    }

    /// One temperature reading, °C, `dt` seconds after the last.
    public mutating func observe(_ reading: Double, dt: Double) {
        guard reading.isFinite else { return }
        guard let t = temperature else {
            temperature = reading
            return
        }
        let step = min(largestJump, max(-largestJump, reading - t))
        temperature = t + step * min(1, max(0, dt) / smoothingTime)
    }

    /// The warming since this was last called, K (none the first time), and
    /// the variance it adds to the slope about each axis, (rad/s/K)².
    public mutating func takeWarming() -> (change: Double, slopeNoise: Double) {
        guard let t = temperature else { return (0, 0) }
        let change = t - (taken ?? t)
        taken = t
        return (change, Self.slopeVariance(coefficient: coefficient, change: abs(change)))
    }

    /// What a temperature change of `change` K (≥ 0) adds to the variance of a
    /// slope whose prior is `coefficient` (rad/s/K), (rad/s/K)².
    public static func slopeVariance(coefficient: Double, change: Double) -> Double {
        coefficient * coefficient * change / slopeSpan
    }
}
