/// A position source's ground speed and track (gpsd's `speed` and `track`):
/// updated at `rate`, each value measured `latency` seconds before it arrives,
/// and held until the next.
///
/// Speed is the horizontal speed of the carrier's reference point plus noise;
/// track is its course over ground from true north (magnetic course plus the
/// declination), with the noise a speed error makes sideways (σ/v radians).
/// Below `minimumTrackSpeed` the track is unknown (nil), as a receiver's is.
public struct GroundSpeedModel: Hashable, Sendable {
    /// Hz
    public var rate: Double
    /// s
    public var latency: Double
    /// m/s, 1σ
    public var speedNoise: Double
    /// m/s
    public var minimumTrackSpeed: Double

    public init(rate: Double = 1, latency: Double = 0.2, speedNoise: Double = 0.1, minimumTrackSpeed: Double = 1) {
        self.rate = rate
        self.latency = latency
        self.speedNoise = speedNoise
        self.minimumTrackSpeed = minimumTrackSpeed
    }

    /// A common consumer receiver through gpsd: 1 Hz, 0.2 s late, 0.1 m/s noise.
    public static let typical = GroundSpeedModel()
}
