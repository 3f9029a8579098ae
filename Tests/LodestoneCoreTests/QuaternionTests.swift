import Testing
import LodestoneCore

@Suite struct QuaternionTests {
    @Test func rotationMatrixRoundTripForManyRotations() {
        // Cover all four branches of Shepperd's method, including angles near π.
        for (axis, angle) in [(Vector3(0.3, -0.5, 0.8), 2.9), (Vector3(1, 0, 0), 3.1), (Vector3(0, 1, 0), 3.14159),
                              (Vector3(0, 0, 1), -3.1), (Vector3(1, 1, 1), 0.001), (Vector3(-2, 1, 0.5), 1.2)] {
            let q = Quaternion(axis: axis, angle: angle)
            let back = Quaternion(rotationMatrix: q.rotationMatrix)
            #expect(abs(abs(back.dot(q)) - 1) < 1e-12, "axis \(axis) angle \(angle)")
        }
    }

    @Test func rotateMatchesMatrixAndComposition() {
        let a = Quaternion(axis: Vector3(1, 2, 3), angle: 0.7)
        let b = Quaternion(axis: Vector3(-1, 0, 2), angle: -1.9)
        let v = Vector3(0.4, -1.5, 2.5)
        #expect(((a * b).rotate(v) - a.rotate(b.rotate(v))).length < 1e-12)
        #expect((a.rotationMatrix * v - a.rotate(v)).length < 1e-12)
        #expect((a.conjugate.rotate(a.rotate(v)) - v).length < 1e-12)
    }

    @Test func quarterTurnAboutUpTurnsNorthToWest() {
        // A +90° (counter-clockwise from above) turn about up takes north (+y) to west (−x).
        let q = Quaternion(axis: .unitZ, angle: Double.pi / 2)
        #expect((q.rotate(.unitY) - Vector3(-1, 0, 0)).length < 1e-15)
    }

    @Test func nlerpTakesTheShorterArc() {
        let a = Quaternion(axis: .unitZ, angle: 0.2)
        let b = -Quaternion(axis: .unitZ, angle: 0.4) // same rotation, opposite sign
        let mid = a.nlerp(to: b, 0.5)
        #expect(abs(mid.angle - 0.3) < 1e-3)
    }

    @Test func matrixInverseAndDeterminant() throws {
        let m = Matrix3(2, 0.1, 0.3, -0.2, 1.5, 0.4, 0.05, 0.2, 0.9)
        let inv = try #require(m.inverse)
        #expect((m * inv).maxDifference(to: .identity) < 1e-12)
        #expect(Matrix3(1, 2, 3, 2, 4, 6, 0, 0, 1).inverse == nil)
    }
}
