/// The Earth's rotation, which every gyroscope senses on top of the board's
/// own: 15.04 °/h about the Earth's axis, so 0.0042 °/s · cos(latitude)
/// about north and 0.0042 °/s · sin(latitude) about up.
///
/// While the board is still or turns slowly, that rate is constant in the
/// body frame and is learned with the gyro bias. In a fast turn or a tumble
/// it is not: its share across the body axes keeps changing, so no body-frame
/// bias holds it, and the estimate turns with the Earth, about north, until
/// the accelerometer pulls it back. The filter trusts a quiet gyroscope for
/// long, so the tilt lags, and the compass read through that tilt is off by
/// tan(dip) times as much (docs/fusion.md). Taking the rate out in the earth
/// frame removes the cause.
///
/// The latitude comes from the field's dip, so that no position is needed: a
/// dipole field has tan(dip) = 2 tan(magnetic latitude) (Gauss). Magnetic
/// latitude is within about 10° of the geographic one where people live,
/// which leaves under 0.001 °/s of the 0.0042 °/s. North is magnetic north;
/// declination turns the horizontal part a few degrees, which is ignored.
/// Earth's rate: 7.292115 × 10⁻⁵ rad/s (WGS 84).
enum EarthRotation {
    static let rate = 7.292115e-5

    /// The Earth's rotation in the filter's earth frame (ENU, north = magnetic
    /// north), rad/s, at the latitude that the dip implies; `sinDip` is the
    /// sine of the dip, positive when the field points down (north of the
    /// magnetic equator).
    static func vector(sinDip: Double) -> Vector3 {
        let cosDip = (max(0, 1 - sinDip * sinDip)).squareRoot()
        // tan(latitude) = tan(dip) / 2: (cos, sin) of the latitude ∝ (2 cos dip, sin dip).
        let scale = rate / (4 * cosDip * cosDip + sinDip * sinDip).squareRoot()
        return Vector3(0, 2 * cosDip * scale, sinDip * scale)
    }
}
