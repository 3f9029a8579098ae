/// How far the gyro's bias may have moved with the part's temperature since the
/// filter last learned it, about each body axis.
///
/// A MEMS gyro's offset follows its die temperature: data sheets give 0.01–0.2
/// °/s per kelvin, so a part warming by ten kelvin after switch-on, or a board
/// put in the sun, moves by a degree per second within minutes. A bias random
/// walk that allowed for that would leave the bias loose all the time; the
/// temperature says when it moves. The bias about each axis is known at the
/// temperature it was learned at (``learnedAt``); at another, it may be off by
/// ``coefficient`` times the difference. ``AttitudeFusion`` keeps the bias's
/// variance about each body axis at least that large (``floorVariance(axis:)``),
/// and moves that axis's ``learnedAt`` toward the present temperature by the
/// share of the axis's variance each correction's readings remove: they teach
/// the bias at today's temperature. Each axis on its own: gravity teaches the
/// horizontal ones within seconds, while the compass teaches the one about up
/// only through the heading's slow drift, and a warming must keep that one
/// loose until it has. The temperature is averaged over ``smoothingTime``
/// first, since a sensor's quantization and noise (tenths of a kelvin) are no
/// warming; and a reading more than ``largestJump`` from that average counts
/// as that far, since a die warms by a few kelvin a minute and a bad bus read
/// (an I²C glitch, all ones) would otherwise loosen the bias by degrees per
/// second. Without a temperature nothing changes.
public struct TemperatureBiasDrift: Hashable, Sendable {
    /// How much the bias may move per kelvin, rad/s (1σ, about each axis).
    public let coefficient: Double
    /// Time constant of the temperature's average, s.
    public let smoothingTime: Double
    /// The fastest a part is taken to warm, K/s.
    public static let fastestWarming = 1.0
    /// The most a reading may differ from the average, K: a warming at
    /// ``fastestWarming`` still moves the average as fast.
    public var largestJump: Double { Self.fastestWarming * smoothingTime }
    /// The averaged temperature, °C; nil until one is given.
    public private(set) var temperature: Double?
    /// The temperature the bias estimate about each body axis (x, y, z) holds for, °C.
    public private(set) var learnedAt: Vector3?

    public init(coefficient: Double, smoothingTime: Double = 5) {
        self.coefficient = coefficient
        self.smoothingTime = smoothingTime
    }

    /// One temperature reading, °C, `dt` seconds after the last. The first is
    /// where the bias is learned (the filter starts learning it there).
    public mutating func observe(_ reading: Double, dt: Double) {
        guard reading.isFinite else { return }
        guard let t = temperature else {
            temperature = reading
            learnedAt = Vector3(reading, reading, reading)
            return
        }
        let step = min(largestJump, max(-largestJump, reading - t))
        temperature = t + step * min(1, max(0, dt) / smoothingTime)
    }

    /// The least variance the bias may have about body axis `axis` (0, 1, 2), (rad/s)².
    public func floorVariance(axis: Int) -> Double {
        guard let t = temperature, let learned = learnedAt else { return 0 }
        let drift = coefficient * (t - learned[axis])
        return drift * drift
    }

    /// A correction's readings removed `shares` (0–1 each) of the bias's variance about each body axis.
    public mutating func taught(shares: Vector3) {
        guard let t = temperature, var learned = learnedAt else { return }
        for axis in 0..<3 where shares[axis].isFinite {
            learned[axis] += (t - learned[axis]) * max(0, min(1, shares[axis]))
        }
        learnedAt = learned
    }
}
