#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small seeded generator (SplitMix64, Steele et al. 2014) so synthetic logs
/// are reproducible bit for bit on every platform.
public struct RandomSource: RandomNumberGenerator, Sendable {
    private var state: UInt64
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in `range`.
    public mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// +1 or −1, evenly.
    public mutating func sign() -> Double {
        next() & 1 == 0 ? 1 : -1
    }

    /// Standard normal, by the Box–Muller transform.
    public mutating func gaussian() -> Double {
        if let g = spareGaussian {
            spareGaussian = nil
            return g
        }
        let u1 = max(uniform(), 0x1.0p-60), u2 = uniform()
        let r = (-2 * log(u1)).squareRoot()
        spareGaussian = r * sin(2 * Double.pi * u2)
        return r * cos(2 * Double.pi * u2)
    }

    /// A vector of independent normal components with standard deviation `sigma`.
    public mutating func gaussianVector(sigma: Double) -> (Double, Double, Double) {
        (gaussian() * sigma, gaussian() * sigma, gaussian() * sigma)
    }
}
