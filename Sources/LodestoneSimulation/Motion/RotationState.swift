import LodestoneCore

/// The rotation of a body at one instant.
public struct RotationState: Hashable, Sendable {
    /// Body → ENU (north = magnetic north).
    public var attitude: Quaternion
    /// Angular velocity in the body frame, rad/s: what an ideal gyroscope reads.
    public var rate: Vector3
    /// Its time derivative, rad/s², body frame.
    public var angularAcceleration: Vector3

    public init(attitude: Quaternion, rate: Vector3, angularAcceleration: Vector3) {
        self.attitude = attitude
        self.rate = rate
        self.angularAcceleration = angularAcceleration
    }
}
