import LodestoneSimulation

extension RandomSource {
    /// Uniform in [lower, upper).
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * uniform()
    }
}
