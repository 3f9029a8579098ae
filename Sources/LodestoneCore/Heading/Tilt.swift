#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Pitch and roll of the board, in degrees, as a boat's or an aircraft's instruments give them.
///
/// - `pitch`: the forward axis above the horizon is positive (bow up), in [−90, 90].
/// - `roll`: the side to the right of the forward axis going down is positive
///   (heel to starboard), in (−180, 180].
///
/// The decomposition is heading about up, then pitch about the right axis, then roll
/// about the forward axis (the order `BoardAttitude` in LodestoneSimulation builds),
/// so a board pitched 20° and rolled −10° reads exactly that back. These are the
/// conventions of Signal K's `navigation.attitude` and of NMEA XDR `PTCH`/`ROLL`
/// as OpenCPN's dashboard shows them (bow up, starboard down).
public struct Tilt: Hashable, Sendable {
    public var pitch: Double
    public var roll: Double

    public init(pitch: Double, roll: Double) {
        self.pitch = pitch
        self.roll = roll
    }

    /// The tilt of `forward` under `attitude` (body → ENU), against the axis
    /// that is up when the board is held level that way (``ForwardAxis/top``).
    public init(attitude: Quaternion, forward: ForwardAxis = .default) {
        let forwardAxis = forward.vector, topAxis = forward.top
        let rightAxis = forwardAxis.cross(topAxis)
        let up = Vector3.unitZ
        let forwardUp = attitude.rotate(forwardAxis).dot(up)
        let rightUp = attitude.rotate(rightAxis).dot(up)
        let topUp = attitude.rotate(topAxis).dot(up)
        pitch = atan2(forwardUp, (rightUp * rightUp + topUp * topUp).squareRoot()) * Angle.degreesPerRadian
        roll = rightUp == 0 && topUp == 0 ? 0 : atan2(-rightUp, topUp) * Angle.degreesPerRadian
    }
}
