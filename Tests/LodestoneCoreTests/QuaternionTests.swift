import Testing
@testable import LodestoneCore

@Suite struct QuaternionTests {
    @Test func rotationMatrixRoundTrip() {
        let q = Quaternion(axis: Vector3(0.3, -0.5, 0.8), angle: 2.9)
        let back = Quaternion(rotationMatrix: q.rotationMatrix)
        #expect(abs(abs(back.dot(q)) - 1) < 1e-12)
    }
}
