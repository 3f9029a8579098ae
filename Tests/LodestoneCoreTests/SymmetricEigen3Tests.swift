import LodestoneCore
import Testing

@Suite struct SymmetricEigen3Tests {
    /// `A·v = λ·v` for every pair, the vectors orthonormal, the values ascending:
    /// on random symmetric matrices and on ones with equal eigenvalues.
    @Test func decomposesSymmetricMatrices() {
        var random = SplitMix(seed: 11)
        var matrices = [Matrix3.identity, Matrix3(diagonal: Vector3(2, 2, -1)), Matrix3.zero,
                        Matrix3(4, 1e-9, 0, 1e-9, 4, 0, 0, 0, 1e6)]
        for _ in 0..<200 {
            let r = (0..<6).map { _ in random.gaussian() * 10 }
            matrices.append(Matrix3(r[0], r[1], r[2], r[1], r[3], r[4], r[2], r[4], r[5]))
        }
        for m in matrices {
            let e = SymmetricEigen3(m)
            let scale = max(1, abs(e.values[0]), abs(e.values[2]))
            #expect(e.values[0] <= e.values[1] && e.values[1] <= e.values[2], "\(m)")
            for (v, value) in zip(e.vectors, e.values) {
                #expect((m * v - v * value).length <= 1e-12 * scale, "\(m): \(v) \(value)")
                #expect(abs(v.length - 1) < 1e-12)
            }
            #expect(abs(e.vectors[0].dot(e.vectors[1])) < 1e-12 && abs(e.vectors[0].dot(e.vectors[2])) < 1e-12
                    && abs(e.vectors[1].dot(e.vectors[2])) < 1e-12, "\(m)")
        }
    }
}
