/// The safety net of gyro fusion: in a field that looks clean, the fused
/// heading may not stay far from the compass for long.
///
/// The heading gate rejects a compass reading that contradicts the gyro, which
/// rides out a short disturbance that leaves the field's strength and dip
/// alone. But when the *filter* is wrong (a rotation taken for gyro bias, a
/// model broken by an unusual motion), the gate locks the compass out for good
/// while the filter claims to be right. So the rejections of readings whose
/// strength and dip match the reference are timed. While they last, the
/// disagreement counts in the reported uncertainty, growing with the time; once
/// they have lasted ``longestRejection``, ``AttitudeFusion`` widens its heading
/// (and vertical bias) variance until the compass passes the gate again, and
/// the filter recovers toward it.
public struct CompassAgreement: Hashable, Sendable {
    /// How long clean readings may be rejected before the filter gives way, s.
    public let longestRejection: Double
    /// How long the clean readings have been rejected without a break, s.
    public private(set) var rejectedFor = 0.0
    /// The heading innovation of those readings, averaged over about a second, rad.
    public private(set) var disagreement = 0.0

    public init(longestRejection: Double) {
        self.longestRejection = longestRejection
    }

    /// A clean reading passed the gate: the filter and the compass agree.
    public mutating func accepted() {
        rejectedFor = 0
        disagreement = 0
    }

    /// A clean reading with heading innovation `innovation` (rad) was rejected.
    /// Returns true when the rejections have lasted too long: the filter must give way.
    public mutating func rejected(innovation: Double, dt: Double) -> Bool {
        disagreement = rejectedFor == 0 ? innovation : disagreement + (innovation - disagreement) * min(1, dt)
        rejectedFor += dt
        return rejectedFor >= longestRejection
    }

    /// A reading that does not look clean (strength or dip off): no evidence either way.
    public mutating func disturbed() {
        rejectedFor = 0
    }

    /// What the disagreement adds to the heading variance, rad²: nothing at first,
    /// all of it once the rejections have lasted ``longestRejection``.
    public var variance: Double {
        guard rejectedFor > 0 else { return 0 }
        return disagreement * disagreement * min(1, rejectedFor / longestRejection)
    }
}
