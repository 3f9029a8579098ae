#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Fits an ellipsoid (or a diagonal ellipsoid, or a sphere) to 3-D points.
///
/// Two steps:
/// 1. **Algebraic**: least squares of the quadric `xᵀAx + 2bᵀx + d = 0` over
///    the points, with the linear constraint `trace(A) = 1` (invariant to
///    rotation and translation, so it does not care where the offset is).
///    Closed form from the 10×10 scatter matrix; the diagonal and sphere
///    models are the same problem with some coefficients held at zero/equal.
/// 2. **Refinement**: Levenberg–Marquardt on the residuals
///    `R · (|W(m − c)| − 1)` with `R = det(W)^(-1/3)`, the mean radius: the
///    error of the corrected magnitude `|S(m − c)| − R` for the volume-keeping
///    correction `S = R·W` — the quantity a compass cares about, in field
///    units. (Without the factor R the residual is relative, and on partial
///    coverage the fit can shrink it by inflating the ellipsoid.) Huber
///    weights (threshold 3σ, σ from the median absolute residual) keep a few
///    spikes or a brief disturbance from pulling the fit.
///
/// Work is done on normalised points (mean removed, divided by the RMS radius)
/// so the normal equations stay well-scaled for any unit or offset.
public struct EllipsoidFit: Sendable {
    /// The points, normalised: `(m − mean) / scale`.
    let points: [Vector3]
    let mean: Vector3
    let scale: Double
    /// `Σ qᵀq` over the points for `q = [x², y², z², 2yz, 2xz, 2xy, 2x, 2y, 2z, 1]`.
    let scatter: SquareMatrix

    /// Result of one fit, in the units of the input points.
    public struct Solution: Hashable, Sendable {
        public var ellipsoid: Ellipsoid
        public var model: CalibrationModel
        /// Levenberg–Marquardt iterations used by the refinement.
        public var iterations: Int
    }

    /// Nil when there are fewer than 4 points, a non-finite point, or all points coincide.
    public init?(points raw: [Vector3]) {
        guard raw.count >= 4, raw.allSatisfy(\.isFinite) else { return nil }
        var sum = Vector3.zero
        for p in raw { sum += p }
        let mean = sum / Double(raw.count)
        var sq = 0.0
        for p in raw { sq += (p - mean).squaredLength }
        let scale = (sq / Double(raw.count)).squareRoot()
        guard scale > 0, scale.isFinite else { return nil }
        let inv = 1 / scale
        let pts = raw.map { ($0 - mean) * inv }
        self.points = pts
        self.mean = mean
        self.scale = scale
        self.scatter = Self.quadricScatter(pts)
    }

    /// Algebraic start followed by the refinement; nil when neither gives a proper ellipsoid.
    public func fit(_ model: CalibrationModel, start: Ellipsoid? = nil) -> Solution? {
        let initial = start.map(normalise) ?? algebraic(model) ?? algebraic(.sphere).map { restrict($0, to: model) }
        guard let initial, let refined = refine(initial, model: model) else { return nil }
        return Solution(ellipsoid: denormalise(refined.ellipsoid), model: model, iterations: refined.iterations)
    }

    /// The algebraic estimate alone (no refinement), in input units.
    public func algebraicEstimate(_ model: CalibrationModel) -> Ellipsoid? {
        algebraic(model).map(denormalise)
    }

    // MARK: normalisation

    func normalise(_ e: Ellipsoid) -> Ellipsoid {
        Ellipsoid(centre: (e.centre - mean) * (1 / scale), transform: e.transform * scale)
    }

    func denormalise(_ e: Ellipsoid) -> Ellipsoid {
        Ellipsoid(centre: mean + e.centre * scale, transform: e.transform * (1 / scale))
    }

    /// Keeps only the parameters `model` has (a sphere start for a diagonal fit and so on).
    func restrict(_ e: Ellipsoid, to model: CalibrationModel) -> Ellipsoid {
        let w = e.transform
        switch model {
        case .full: return e
        case .diagonal: return Ellipsoid(centre: e.centre, transform: Matrix3(diagonal: Vector3(w[0, 0], w[1, 1], w[2, 2])))
        case .sphere: return Ellipsoid(centre: e.centre, transform: Matrix3.identity * (w.trace / 3))
        }
    }

    // MARK: algebraic fit

    static func quadricScatter(_ pts: [Vector3]) -> SquareMatrix {
        var s = [Double](repeating: 0, count: 100)
        var q = [Double](repeating: 0, count: 10)
        s.withUnsafeMutableBufferPointer { s in
            q.withUnsafeMutableBufferPointer { q in
                for p in pts {
                    q[0] = p.x * p.x; q[1] = p.y * p.y; q[2] = p.z * p.z
                    q[3] = 2 * p.y * p.z; q[4] = 2 * p.x * p.z; q[5] = 2 * p.x * p.y
                    q[6] = 2 * p.x; q[7] = 2 * p.y; q[8] = 2 * p.z; q[9] = 1
                    for r in 0..<10 {
                        let qr = q[r]
                        for c in r..<10 { s[r * 10 + c] += qr * q[c] }
                    }
                }
            }
        }
        var m = SquareMatrix(size: 10)
        for r in 0..<10 { for c in r..<10 { m[r, c] = s[r * 10 + c]; m[c, r] = s[r * 10 + c] } }
        return m
    }

    /// Minimises `vᵀ S v` over quadric coefficients `v = v0 + T·w`, which
    /// encodes `trace(A) = 1` and the coefficients the model holds at zero.
    func algebraic(_ model: CalibrationModel) -> Ellipsoid? {
        func unit(_ i: Int) -> [Double] { (0..<10).map { $0 == i ? 1 : 0 } }
        func minus(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { $0 - $1 } }
        let v0: [Double]
        let t: [[Double]]
        switch model {
        case .full:
            v0 = unit(2)
            t = [minus(unit(0), unit(2)), minus(unit(1), unit(2))] + (3..<10).map(unit)
        case .diagonal:
            v0 = unit(2)
            t = [minus(unit(0), unit(2)), minus(unit(1), unit(2))] + (6..<10).map(unit)
        case .sphere:
            v0 = (0..<10).map { $0 < 3 ? 1.0 / 3 : 0 }
            t = (6..<10).map(unit)
        }
        let m = scatter.congruence(columns: t)
        let sv0 = scatter.multiply(v0)
        let rhs = t.map { col in -zip(col, sv0).reduce(0) { $0 + $1.0 * $1.1 } }
        guard let w = m.choleskySolve(rhs) else { return nil }
        var v = v0
        for (k, col) in t.enumerated() { for i in 0..<10 { v[i] += w[k] * col[i] } }
        let a = Matrix3(v[0], v[5], v[4], v[5], v[1], v[3], v[4], v[3], v[2])
        let b = Vector3(v[6], v[7], v[8])
        guard let ainv = a.inverse else { return nil }
        let c = -(ainv * b)
        let k = c.dot(a * c) - v[9]
        guard k != 0, k.isFinite else { return nil }
        let q = a * (1 / k)
        guard q.symmetricEigen.values.x > 0 else { return nil }
        let e = Ellipsoid(centre: c, transform: q.symmetricFunction { $0.squareRoot() })
        return e.isProper ? e : nil
    }

    // MARK: refinement

    private struct Evaluation {
        var cost = 0.0
        var jtj = [Double](repeating: 0, count: 81)
        var jtr = [Double](repeating: 0, count: 9)
    }

    /// Mean radius `det(W)^(-1/3)` and its gradient over the parameters of
    /// `model` (zero for the centre); nil when `W` is not positive-definite.
    private func meanRadiusGradient(_ w: Matrix3, model: CalibrationModel) -> (radius: Double, gradient: [Double])? {
        let det = w.determinant
        guard det > 0, det.isFinite, let inv = w.inverse else { return nil }
        let r = 1 / cbrt(det)
        // ∂ det(W)^(-1/3) / ∂W_jk = -(R/3) (W⁻¹)_kj; symmetric off-diagonal parameters count twice.
        var g = [Double](repeating: 0, count: 9)
        switch model {
        case .sphere:
            g[3] = -r / w[0, 0]
        case .diagonal, .full:
            g[3] = -r / 3 * inv[0, 0]; g[4] = -r / 3 * inv[1, 1]; g[5] = -r / 3 * inv[2, 2]
            if model == .full {
                g[6] = -2 * r / 3 * inv[1, 2]; g[7] = -2 * r / 3 * inv[0, 2]; g[8] = -2 * r / 3 * inv[0, 1]
            }
        }
        return (r, g)
    }

    /// Cost and normal equations of the residuals `R·(|W(m − c)| − 1)`. The
    /// parameters of `model` are, in order: centre (3), then W₀₀ W₁₁ W₂₂ W₁₂
    /// W₀₂ W₀₁ (full), W₀₀ W₁₁ W₂₂ (diagonal) or the common scale (sphere).
    private func evaluate(_ e: Ellipsoid, model: CalibrationModel, huber k: Double) -> Evaluation {
        let n = model.parameterCount
        let w = e.transform, c = e.centre
        var out = Evaluation()
        guard let (radius, radiusGradient) = meanRadiusGradient(w, model: model) else {
            out.cost = .infinity
            return out
        }
        var cost = 0.0
        out.jtj.withUnsafeMutableBufferPointer { jtj in
            out.jtr.withUnsafeMutableBufferPointer { jtr in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: 9) { row in
                    points.withUnsafeBufferPointer { pts in
                        for p in pts {
                            let d = p - c
                            let u = w * d
                            let rho = u.length
                            guard rho > 0 else { continue }
                            let g = u * (1 / rho)
                            let relative = rho - 1
                            let r = radius * relative
                            let ar = abs(r)
                            let weight: Double
                            if ar <= k {
                                weight = 1
                                cost += 0.5 * r * r
                            } else {
                                weight = k / ar
                                cost += k * (ar - 0.5 * k)
                            }
                            let wg = w * g
                            row[0] = -wg.x; row[1] = -wg.y; row[2] = -wg.z
                            switch model {
                            case .sphere:
                                row[3] = g.dot(d)
                            case .diagonal, .full:
                                row[3] = g.x * d.x; row[4] = g.y * d.y; row[5] = g.z * d.z
                                if model == .full {
                                    row[6] = g.y * d.z + g.z * d.y
                                    row[7] = g.x * d.z + g.z * d.x
                                    row[8] = g.x * d.y + g.y * d.x
                                }
                            }
                            // d(R·(ρ − 1)) = R·dρ + (ρ − 1)·dR
                            for a in 0..<n { row[a] = radius * row[a] + relative * radiusGradient[a] }
                            for a in 0..<n {
                                let ra = weight * row[a]
                                jtr[a] += ra * r
                                for b in a..<n { jtj[a * 9 + b] += ra * row[b] }
                            }
                        }
                    }
                }
            }
        }
        out.cost = cost
        return out
    }

    private func residualMagnitudes(_ e: Ellipsoid) -> [Double] {
        let r = e.meanRadius
        return points.map { abs(r * e.residual($0)) }
    }

    private func step(_ e: Ellipsoid, _ delta: [Double], model: CalibrationModel) -> Ellipsoid {
        var out = e
        out.centre += Vector3(delta[0], delta[1], delta[2])
        var w = e.transform
        switch model {
        case .sphere:
            w = w + Matrix3.identity * delta[3]
        case .diagonal, .full:
            w[0, 0] += delta[3]; w[1, 1] += delta[4]; w[2, 2] += delta[5]
            if model == .full {
                w[1, 2] += delta[6]; w[2, 1] += delta[6]
                w[0, 2] += delta[7]; w[2, 0] += delta[7]
                w[0, 1] += delta[8]; w[1, 0] += delta[8]
            }
        }
        out.transform = w
        return out
    }

    /// Huber threshold: 3 × 1.4826 × median |residual|, at least 0.1 % of the radius.
    private func huberThreshold(_ e: Ellipsoid) -> Double {
        var r = residualMagnitudes(e)
        let median = Self.median(&r)
        return max(3 * 1.4826 * median, 1e-3)
    }

    func refine(_ start: Ellipsoid, model: CalibrationModel) -> (ellipsoid: Ellipsoid, iterations: Int)? {
        let n = model.parameterCount
        guard points.count >= n else { return nil }
        var current = restrict(start, to: model)
        var iterations = 0
        var k = huberThreshold(current)
        // Two rounds: the second re-estimates the Huber threshold from the
        // first round's residuals (the start may be biased).
        for round in 0..<2 {
            var eval = evaluate(current, model: model, huber: k)
            var lambda = 1e-4
            while iterations < 100 {
                iterations += 1
                var a = SquareMatrix(size: n)
                for i in 0..<n {
                    for j in i..<n {
                        a[i, j] = eval.jtj[i * 9 + j]
                        a[j, i] = eval.jtj[i * 9 + j]
                    }
                    a[i, i] *= 1 + lambda
                }
                guard let delta = a.choleskySolve((0..<n).map { -eval.jtr[$0] }) else { return nil }
                // Converged when the step, or the decrease the linear model
                // predicts for it, is at rounding level (normalised units).
                var predicted = 0.0
                for i in 0..<n {
                    var jtjDelta = 0.0
                    for j in 0..<n { jtjDelta += eval.jtj[min(i, j) * 9 + max(i, j)] * delta[j] }
                    predicted -= delta[i] * (eval.jtr[i] + 0.5 * jtjDelta)
                }
                let stepSize = delta.reduce(0) { $0 + $1 * $1 }.squareRoot()
                if stepSize < 1e-10 || predicted <= 1e-12 * eval.cost { break }
                let trial = step(current, delta, model: model)
                let trialEval = evaluate(trial, model: model, huber: k)
                if trialEval.cost < eval.cost {
                    current = trial
                    eval = trialEval
                    lambda = max(lambda * 0.1, 1e-12)
                } else {
                    lambda *= 10
                    if lambda > 1e10 { break }
                }
            }
            if round == 0 {
                let next = huberThreshold(current)
                if abs(next - k) <= 0.1 * k { break }
                k = next
            }
        }
        // Symmetric by construction; remove rounding-level asymmetry from the start value.
        current.transform = current.transform.symmetricPart
        return current.isProper ? (current, iterations) : nil
    }

    /// Median by quickselect (Hoare), reordering `values`.
    static func median(_ values: inout [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let k = values.count / 2
        var lo = 0, hi = values.count - 1
        while lo < hi {
            let pivot = values[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return values[k]
    }
}
