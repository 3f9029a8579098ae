#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

@inline(__always)
func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    atan2(y, x) * Angle.degreesPerRadian
}

@inline(__always)
func sine(_ x: Double) -> Double { sin(x) }

@inline(__always)
func cosine(_ x: Double) -> Double { cos(x) }

@inline(__always)
func arcTangent(_ x: Double) -> Double { atan(x) }

/// A number for a summary line: rounded to 3 decimals, without a trailing `.0`.
func decimal(_ x: Double) -> String {
    let r = (x * 1000).rounded() / 1000
    return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
}
