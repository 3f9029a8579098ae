import LodestoneCore
import Testing
@testable import LodestoneCalibration

@Suite struct LinearAlgebraTests {
    /// A · v = λ v for every pair, ascending values, orthonormal vectors, on a
    /// matrix built from known eigenvalues and a rotation.
    @Test func jacobiFindsKnownEigenpairs() {
        let r = Quaternion(axis: Vector3(0.2, -0.7, 0.4), angle: 1.1).rotationMatrix
        let a = r * Matrix3(diagonal: Vector3(3, -1, 0.5)) * r.transposed
        let e = SymmetricEigen(a.squareMatrix)
        #expect(zip(e.values, [-1.0, 0.5, 3]).allSatisfy { abs($0 - $1) < 1e-12 })
        for (k, lambda) in e.values.enumerated() {
            let v = Vector3(e.vectors[k][0], e.vectors[k][1], e.vectors[k][2])
            #expect((a * v - v * lambda).length < 1e-12)
            #expect(abs(v.length - 1) < 1e-12)
        }
    }

    @Test func jacobiOnLargerMatrix() {
        // Hilbert-like 6×6: symmetric positive-definite, eigenvalues span many decades.
        var m = SquareMatrix(size: 6)
        for i in 0..<6 { for j in 0..<6 { m[i, j] = 1 / Double(i + j + 1) } }
        let e = SymmetricEigen(m)
        for (k, lambda) in e.values.enumerated() {
            let v = e.vectors[k]
            let mv = m.multiply(v)
            let residual = zip(mv, v).map { ($0 - lambda * $1) * ($0 - lambda * $1) }.reduce(0, +).squareRoot()
            #expect(residual < 1e-13)
        }
        #expect(e.values[0] > 0 && e.values[0] < 1e-6)
    }

    @Test func choleskySolvesAndRefusesIndefinite() throws {
        var m = SquareMatrix(size: 3)
        let rows: [[Double]] = [[4, 1, 0.5], [1, 3, -0.2], [0.5, -0.2, 2]]
        for i in 0..<3 { for j in 0..<3 { m[i, j] = rows[i][j] } }
        let x = try #require(m.choleskySolve([1, 2, 3]))
        let back = m.multiply(x)
        #expect(zip(back, [1.0, 2, 3]).allSatisfy { abs($0 - $1) < 1e-12 })
        m[2, 2] = -1
        #expect(m.choleskySolve([1, 2, 3]) == nil)
    }

    @Test func squareRootAndCondition() {
        let r = Quaternion(axis: Vector3(1, 1, 0), angle: 0.7).rotationMatrix
        let a = r * Matrix3(diagonal: Vector3(4, 9, 16)) * r.transposed
        let s = a.symmetricFunction { $0.squareRoot() }
        #expect((s * s).maxDifference(to: a) < 1e-12)
        #expect(abs(a.conditionNumber - 4) < 1e-12)
    }
}
