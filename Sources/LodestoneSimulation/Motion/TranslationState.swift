import LodestoneCore

/// The translation of a point at one instant, ENU.
public struct TranslationState: Hashable, Sendable {
    /// m/s
    public var velocity: Vector3
    /// m/s²
    public var acceleration: Vector3

    public init(velocity: Vector3, acceleration: Vector3) {
        self.velocity = velocity
        self.acceleration = acceleration
    }
}
