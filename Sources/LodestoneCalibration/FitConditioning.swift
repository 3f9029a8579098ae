import LodestoneCore

/// How well the spread of sample directions pins down each model's parameters.
///
/// For samples on a sphere seen from its centre in unit directions `û`, the
/// refinement's Jacobian rows are (in radius-free units) `−û` for the offset,
/// `û_j²` for the axis scales and `2û_jû_k` for the cross terms. The smallest
/// eigenvalue of the mean of `rowᵀrow` over the samples is the information per
/// sample on the worst-determined combination of parameters. Each figure here
/// is that eigenvalue divided by its value for directions spread uniformly
/// over the whole sphere (1/3 for the sphere model, 2/15 for the others), so
/// 1 means "as good as full coverage" and 0 means "some parameter is not
/// determined at all" (for example a planar ring of samples leaves the offset
/// along its axis free). It depends only on the directions, not on noise or
/// on the number of samples.
public struct FitConditioning: Hashable, Sendable {
    public var sphere: Double
    public var diagonal: Double
    public var full: Double

    public init(sphere: Double, diagonal: Double, full: Double) {
        self.sphere = sphere
        self.diagonal = diagonal
        self.full = full
    }

    /// From unit direction vectors (zero vectors are ignored).
    public init(directions: [Vector3]) {
        var info = SquareMatrix(size: 9)
        var count = 0
        var row = [Double](repeating: 0, count: 9)
        for u in directions {
            let l = u.length
            guard l > 0, l.isFinite else { continue }
            let v = u / l
            count += 1
            row[0] = -v.x; row[1] = -v.y; row[2] = -v.z
            row[3] = v.x * v.x; row[4] = v.y * v.y; row[5] = v.z * v.z
            row[6] = 2 * v.y * v.z; row[7] = 2 * v.x * v.z; row[8] = 2 * v.x * v.y
            for a in 0..<9 { for b in a..<9 { info.storage[a * 9 + b] += row[a] * row[b] } }
        }
        guard count > 0 else {
            self.init(sphere: 0, diagonal: 0, full: 0)
            return
        }
        for a in 0..<9 {
            for b in a..<9 {
                let m = info.storage[a * 9 + b] / Double(count)
                info[a, b] = m
                info[b, a] = m
            }
        }
        func smallest(_ m: SquareMatrix) -> Double { max(SymmetricEigen(m).values[0], 0) }
        // The sphere model's scale column is the sum of the three axis-scale columns.
        func unit(_ i: Int) -> [Double] { (0..<9).map { $0 == i ? 1 : 0 } }
        let sphereColumns = [unit(0), unit(1), unit(2), (0..<9).map { (3..<6).contains($0) ? 1.0 : 0 }]
        self.init(
            sphere: smallest(info.congruence(columns: sphereColumns)) / Self.uniformValue(.sphere),
            diagonal: smallest(info.submatrix(Array(0..<6))) / Self.uniformValue(.diagonal),
            full: smallest(info) / Self.uniformValue(.full)
        )
    }

    /// The figure for uniformly spread directions, which the values here are divided by.
    static func uniformValue(_ model: CalibrationModel) -> Double {
        model == .sphere ? 1.0 / 3 : 2.0 / 15
    }

    /// Predicted 1σ error of the worst-determined parameter combination of
    /// `model`, relative to the radius (an offset error as a fraction of the
    /// field, a scale error as a fraction of 1), for `sampleCount` samples
    /// whose residuals have RMS `relativeResidual` (fit error / 100):
    /// `σ / √(N · λ_min)`. Infinite when the model is not determined at all.
    public func predictedParameterError(_ model: CalibrationModel, relativeResidual: Double, sampleCount: Int) -> Double {
        let information = Double(sampleCount) * self[model] * Self.uniformValue(model)
        return information > 0 ? relativeResidual / information.squareRoot() : .infinity
    }

    public subscript(model: CalibrationModel) -> Double {
        switch model {
        case .sphere: return sphere
        case .diagonal: return diagonal
        case .full: return full
        }
    }
}
