#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore

/// What the outputs give beside a ``Heading``: the board's pitch and roll (``Tilt``),
/// the inclination the calibrated field has, and the field strength the magnetic
/// model expects at the position. HEADING, ATT, the live view and XDR share it.
struct HeadingAttitude {
    let tilt: Tilt
    /// The measured dip (inclination), degrees, positive when the field points down.
    let dip: Double
    /// The calibrated field strength, µT.
    let fieldStrength: Double
    /// Total intensity the model expects here, µT; nil without a position.
    let expectedField: Double?

    init(_ h: Heading, forward: ForwardAxis, expected: ExpectedField?) {
        tilt = Tilt(attitude: h.attitude, forward: forward)
        let body = Vector3(h.x, h.y, h.z)
        let world = h.attitude.rotate(body) // east, north, up
        dip = atan2(-world.z, (world.x * world.x + world.y * world.y).squareRoot()) * Angle.degreesPerRadian
        fieldStrength = body.length
        expectedField = expected?.strength
    }
}
