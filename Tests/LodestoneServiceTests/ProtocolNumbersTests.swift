import LodestoneCore
import LodestoneLocation
import LodestoneLogs
import Testing
@testable import LodestoneService

/// Directions in protocol objects are rounded, then wrapped (issue 13: 360.000 was printed,
/// outside the documented [0, 360), and a delta of +180.000 outside [−180, 180)).
@Suite struct ProtocolNumbersTests {
    static func heading(magnetic: Double, true trueHeading: Double?) -> Heading {
        Heading(timestamp: 12.34, magneticHeading: magnetic, trueHeading: trueHeading, headingAccuracy: 3,
                declination: nil, x: 0, y: 20, z: -40, attitude: Quaternion(w: 1, x: 0, y: 0, z: 0))
    }

    @Test func headingsJustUnder360PrintAsZero() {
        let j = JSONLineBuilder()
        let h = Self.heading(magnetic: 359.99999, true: 359.9996)
        ProtocolMessages.heading(j, h, attitude: HeadingAttitude(h, forward: .plusY, expected: nil), time: 0,
                                 motion: .init(speed: 1.5, course: 359.996))
        #expect(j.text.contains(#""magneticHeading":0.000,"trueHeading":0.000,"#), "\(j.text)")
        #expect(j.text.contains(#""course":0.00}"#), "\(j.text)")
        #expect(!j.text.contains("360.0"))
    }

    /// Steering to the antipode of the equator at 0° E: GeodSolve -i -p 10 gives the initial
    /// azimuth −0.000000380070415° to (4e-9, −179.999999996); a true heading of 180.0003°
    /// makes a delta of 179.99969962°, "180.000" at three decimals before the fix.
    @Test func steeringNearTheAntipodeStaysInRange() throws {
        var steering = try ClientSteering(ClientCommand.Steer(latitude: 0.000000004, longitude: -179.999999996, tolerance: nil, arrivalRadius: nil))
        let j = JSONLineBuilder()
        let wrote = steering.encode(into: j, heading: Self.heading(magnetic: 170, true: 180.0003),
                                    position: Location(latitude: 0, longitude: 0, course: 359.999, timestamp: 0), time: 0)
        #expect(wrote)
        #expect(j.text.contains(#""bearing":0.000,"#) && j.text.contains(#""delta":-180.000,"#), "\(j.text)")
        #expect(j.text.contains(#""course":0.00}"#) && !j.text.contains("360.0"), "\(j.text)")
    }
}
