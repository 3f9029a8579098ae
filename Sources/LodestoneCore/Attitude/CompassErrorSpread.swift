#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How large the compass error is, learned from how the compass and the gyro
/// disagree as the board turns.
///
/// Over a short turn the gyro measures the change of heading almost exactly;
/// the compass measures it with the difference of its errors at the two
/// attitudes. Once the board has turned far enough for those errors to be
/// unrelated (twice the correlation angle), the squared difference of the two
/// changes, less what noise and the gyro's own error explain, is twice the
/// compass error's variance. The differences are averaged over
/// ``smoothingTime`` first, so that a reading's noise, larger than the error
/// sought, is not what is measured. Each such pair is a sample; the figure is their
/// running mean, starting from the figure it is given (a calibration
/// profile's, or an uncalibrated guess). A pair whose noise (a fast turn: the
/// magnetometer's latency) dwarfs the figure tells little about it and counts
/// for as little. A board that has not turned gives no sample, so the figure
/// stays as it was.
public struct CompassErrorSpread: Hashable, Sendable {
    /// The compass heading error, rad² (1σ squared).
    public private(set) var variance: Double
    /// How far the board must turn between the two readings of a pair, rad.
    public let pairAngle: Double
    /// The longest time between them, s. What the gyro drifts over a pair is
    /// taken out of its sample, and a pair it dominates counts for little, so
    /// this only bounds how long the gyro's error model is trusted: the compass
    /// error's lifetime, beyond which a pair's ends are unrelated anyway.
    public let longestPairTime: Double
    /// How many pairs a new figure is averaged over.
    public let pairsToLearn: Double
    private let smallestVariance: Double
    private let cosHalfPairAngle: Double
    private var anchor: Reading?
    /// The difference averaged over the last ``smoothingTime``, its white
    /// variance, and when the last reading came.
    private var smoothed: Reading?
    /// The averaging time of the compass-minus-gyro difference, s.
    public let smoothingTime: Double
    /// Heading corrections applied since the start, rad: the compass's
    /// heading less the gyro's alone is the innovation plus these.
    private var appliedCorrection = 0.0

    /// One compass reading: its difference from the gyro-carried heading, its
    /// white variance, and where and when it was taken.
    public struct Reading: Hashable, Sendable {
        public var difference: Double
        public var whiteVariance: Double
        public var attitude: Quaternion
        public var time: Double

        public init(difference: Double, whiteVariance: Double, attitude: Quaternion, time: Double) {
            self.difference = difference
            self.whiteVariance = whiteVariance
            self.attitude = attitude
            self.time = time
        }
    }

    public init(initialVariance: Double, smallestVariance: Double, pairAngle: Double, longestPairTime: Double,
                pairsToLearn: Double = 20, smoothingTime: Double = 0.5) {
        self.smoothingTime = smoothingTime
        variance = initialVariance
        self.smallestVariance = smallestVariance
        self.pairAngle = pairAngle
        cosHalfPairAngle = cos(pairAngle / 2)
        self.longestPairTime = longestPairTime
        self.pairsToLearn = pairsToLearn
    }

    /// The filter turned its heading by `angle` (rad, about up).
    public mutating func corrected(by angle: Double) {
        appliedCorrection += angle
    }

    /// A clean compass reading: `innovation` is its heading less the filter's
    /// (rad), `whiteVariance` its noise (rad²); `gyroVariance(turned, elapsed)`
    /// tells what the gyro's own error adds to a heading change over that turn
    /// (rad) and time (s), rad². Returns the reading smoothed.
    @discardableResult
    public mutating func observe(innovation: Double, whiteVariance: Double, attitude: Quaternion, time: Double,
                                 gyroVariance: (Double, Double) -> Double) -> Reading {
        let reading = smooth(Reading(difference: innovation + appliedCorrection, whiteVariance: whiteVariance,
                                     attitude: attitude, time: time))
        guard let a = anchor, reading.time - a.time <= longestPairTime else {
            anchor = reading
            return reading
        }
        // Turned at least pairAngle ⇔ |q₀·q| ≤ cos(pairAngle/2): the angle itself only for a pair.
        let dot = abs(a.attitude.dot(reading.attitude))
        guard dot <= cosHalfPairAngle else { return reading }
        let turned = 2 * acos(min(1, dot))
        let change = Angle.wrapped(radians: reading.difference - a.difference)
        let explained = a.whiteVariance + reading.whiteVariance + gyroVariance(turned, reading.time - a.time)
        let sample = 0.5 * (change * change - explained)
        // The sample's spread grows with (variance + noise)²: weigh it by the inverse, relative to a clean pair.
        let relative = variance / (variance + 0.5 * explained)
        variance = max(smallestVariance, variance + (sample - variance) * relative * relative / pairsToLearn)
        anchor = reading
        return reading
    }

    /// A reading was disturbed or rejected: the next pair starts afresh.
    public mutating func interrupted() {
        anchor = nil
        smoothed = nil
    }

    /// The running average of the readings' differences; its white variance
    /// is that of one reading times k/(2 − k) for an average with factor k.
    private mutating func smooth(_ r: Reading) -> Reading {
        guard var s = smoothed else {
            smoothed = r
            return r
        }
        let k = min(1, (r.time - s.time) / smoothingTime)
        s.difference += Angle.wrapped(radians: r.difference - s.difference) * k
        s.whiteVariance += (r.whiteVariance * k / (2 - k) - s.whiteVariance) * k
        s.attitude = r.attitude
        s.time = r.time
        smoothed = s
        return s
    }
}
