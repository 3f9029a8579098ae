#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// The surface `{ m : |W · (m − centre)| = 1 }` with `W` symmetric positive-definite.
///
/// This is how a calibration fit describes the raw samples: `W` maps the
/// ellipsoid onto the unit sphere, so a calibration is `W` scaled to the
/// wanted field magnitude.
public struct Ellipsoid: Hashable, Sendable {
    public var centre: Vector3
    /// Symmetric positive-definite map from the ellipsoid onto the unit sphere.
    public var transform: Matrix3

    public init(centre: Vector3, transform: Matrix3) {
        self.centre = centre
        self.transform = transform
    }

    /// A sphere of `radius` around `centre`.
    public init(centre: Vector3, radius: Double) {
        self.init(centre: centre, transform: Matrix3.identity * (1 / radius))
    }

    /// Principal semi-axes, ascending.
    public var radii: Vector3 {
        let v = transform.symmetricEigen.values
        return Vector3(1 / v.z, 1 / v.y, 1 / v.x)
    }

    /// Radius of the sphere of the same volume: `det(W)^(-1/3)`.
    public var meanRadius: Double { 1 / cbrt(transform.determinant) }

    /// True when `W` is finite, symmetric and positive-definite.
    public var isProper: Bool {
        guard centre.isFinite, transform.isFinite else { return false }
        guard transform.maxDifference(to: transform.transposed) <= 1e-9 * transform.frobeniusNorm else { return false }
        return transform.symmetricEigen.values.x > 0
    }

    /// `|W · (m − centre)| − 1`: the relative distance of `m` from the surface,
    /// measured in the corrected (sphere) space.
    @inlinable
    public func residual(_ m: Vector3) -> Double {
        (transform * (m - centre)).length - 1
    }

    /// The outline of the ellipsoid seen along the third axis: the ellipse that
    /// bounds its orthographic projection onto axes `(first, second)`
    /// (0 = x, 1 = y, 2 = z), as `count` points.
    public func projectedOutline(first: Int, second: Int, count: Int = 96) -> [(Double, Double)] {
        // Projection of {d : dᵀ Σ⁻¹ d ≤ 1} with Σ = (WᵀW)⁻¹ keeps the 2×2 block of Σ.
        guard let sigma = (transform.transposed * transform).inverse else { return [] }
        let a = sigma[first, first], b = sigma[first, second], c = sigma[second, second]
        // Cholesky of [[a, b], [b, c]]: the outline is L · (cos t, sin t).
        guard a > 0 else { return [] }
        let l11 = a.squareRoot(), l21 = b / l11
        let l22 = max(c - l21 * l21, 0).squareRoot()
        let c0 = centre[first], c1 = centre[second]
        return (0...count).map { k in
            let t = 2 * Double.pi * Double(k) / Double(count)
            let u = cos(t), v = sin(t)
            return (c0 + l11 * u, c1 + l21 * u + l22 * v)
        }
    }
}
