import Testing
@testable import LodestoneCore

/// An axis held at the gyro's full scale is told from a reading that merely
/// repeats: a lost sample held whole, the flat top of a turn.
@Suite struct GyroSaturationTests {
    static let dt = 0.01

    /// Feeds `readings` as the fusion does and returns what each missed.
    static func missed(_ readings: [Vector3]) -> [Vector3] {
        var saturation = GyroSaturation()
        return readings.map { saturation.mayBeClipped($0) ? saturation.missedRotation(rawRate: $0, dt: dt) : .zero }
    }

    /// z held at 250 °/s while x and y keep changing: nothing until the fourth
    /// reading, which counts all four steps; one step each after; nothing once it lets go.
    @Test func anAxisHeldAtItsLargestIsClipped() {
        let top = 250 * Angle.radiansPerDegree
        var readings = (0..<5).map { Vector3(0.01 * Double($0), -0.02 * Double($0), 3 + 0.2 * Double($0)) }
        readings += (0..<6).map { Vector3(0.1 + 0.01 * Double($0), 0.05 * Double($0), top) }
        readings.append(Vector3(0.3, 0.4, top - 0.5))
        let m = Self.missed(readings)
        #expect(m[..<8].allSatisfy { $0 == .zero }, "\(m[..<8])")
        #expect(abs(m[8].z - 4 * top * Self.dt) < 1e-12 && m[8].x == 0 && m[8].y == 0, "\(m[8])")
        #expect(m[9...10].allSatisfy { abs($0.z - top * Self.dt) < 1e-12 }, "\(m[9...10])")
        #expect(m[11] == .zero)
        let negative = Self.missed((0..<6).map { Vector3(-top, 0.01 * Double($0), 0.2) })
        #expect(negative[5].x < 0, "the missed turn has the reading's sign: \(negative[5])")
    }

    /// A whole sample repeated (a lost one held), three equal readings at the top of a
    /// turn, and a held value below any full scale are no clip.
    @Test func aRepeatIsNoClip() {
        let whole = Self.missed((0..<8).map { _ in Vector3(4, -3, 2.5) })
        #expect(whole.allSatisfy { $0 == .zero }, "\(whole)")
        let flatTop = Self.missed([3.0, 3.5, 3.79, 3.79, 3.79, 3.7, 3.5].enumerated().map {
            Vector3(0.01 * Double($0.offset), $0.element, 0) })
        #expect(flatTop.allSatisfy { $0 == .zero }, "\(flatTop)")
        let slow = Self.missed((0..<8).map { Vector3(1.5, 0.01 * Double($0), 0) })
        #expect(slow.allSatisfy { $0 == .zero }, "\(slow)")
        // A slow reading between fast ones breaks the run, however alike the fast ones are.
        let broken = Self.missed([3, 4, 4, 0.5, 4, 4, 4].enumerated().map { Vector3($0.element, 0.01 * Double($0.offset), 0) })
        #expect(broken.allSatisfy { $0 == .zero }, "\(broken)")
    }
}
