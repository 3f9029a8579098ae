import Testing
@testable import LodestoneCore

@Suite struct RestDetectorTests {
    func detector() -> RestDetector {
        RestDetector(rateThreshold: 2 * Angle.radiansPerDegree, accelerationThreshold: 0.5,
                     minimumDuration: 1.5, averagingTime: 0.5)
    }

    @Test func restIsDeclaredAfterMinimumDuration() {
        var d = detector()
        let g = Vector3(0, 0, 9.81)
        for _ in 0..<149 { let v1 = d.update(angularRate: Vector3(0.001, 0, 0), acceleration: g, dt: 0.01); #expect(!v1) }
        let v2 = d.update(angularRate: Vector3(0.001, 0, 0), acceleration: g, dt: 0.01)
        #expect(v2)
    }

    @Test func turningOrShakingEndsRest() {
        var d = detector()
        let g = Vector3(0, 0, 9.81)
        for _ in 0..<200 { d.update(angularRate: .zero, acceleration: g, dt: 0.01) }
        #expect(d.isAtRest)
        let v3 = d.update(angularRate: Vector3(0, 0, 0.1), acceleration: g, dt: 0.01)
        #expect(!v3) // 5.7 °/s
        for _ in 0..<200 { d.update(angularRate: .zero, acceleration: g, dt: 0.01) }
        #expect(d.isAtRest)
        let v4 = d.update(angularRate: .zero, acceleration: g + Vector3(1, 0, 0), dt: 0.01)
        #expect(!v4)
    }
}
