/// Where a point stands relative to the magnetic poles, by the horizontal
/// intensity H, as the WMM military specification (MIL-PRF-89500B) defines it.
///
/// Near a magnetic pole H is small, so the compass direction is weak and
/// declination changes fast over short distances: the model cannot give a
/// trustworthy true heading there.
public enum MagneticPoleZone: String, Sendable, Hashable, CaseIterable {
    /// H ≥ 6000 nT.
    case normal
    /// 2000 nT ≤ H < 6000 nT: compass accuracy may be degraded.
    case caution
    /// H < 2000 nT: compass accuracy is highly degraded; declination is not to be trusted.
    case blackout

    /// Limits of the zones in nT.
    public static let blackoutLimit = 2000.0
    public static let cautionLimit = 6000.0

    public init(horizontalIntensity h: Double) {
        if h < Self.blackoutLimit {
            self = .blackout
        } else if h < Self.cautionLimit {
            self = .caution
        } else {
            self = .normal
        }
    }
}
