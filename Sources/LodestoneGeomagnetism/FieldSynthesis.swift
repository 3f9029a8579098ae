/// The field vector in geodetic north/east/down components (nT), with its
/// yearly rate of change (nT/yr).
struct FieldVector {
    var north: Double
    var east: Double
    var down: Double
    var northRate: Double
    var eastRate: Double
    var downRate: Double
}

/// Spherical-harmonic synthesis of the field (WMM technical report, eq. 10–12)
/// and of its secular variation, by columns of the Legendre recursion.
///
/// Division-free at the poles: for m ≥ 1 the recursion runs on
/// Rₙᵐ = (a/r)ⁿ⁺² Pₙᵐ(sin φ′) / cos φ′, which is finite at φ′ = ±90°
/// (Pₙᵐ carries a factor cosᵐ φ′). Then Pₙᵐ = cos φ′ Rₙᵐ, its derivative is
/// cos φ′ dRₙᵐ − sin φ′ Rₙᵐ, and the east component's 1/cos φ′ cancels. This
/// gives, at exactly ±90°, the same limit the report's special pole summation
/// gives, with no branch. Both recursions (value and φ′-derivative) are
/// written so that each step's critical path is one multiply and one add.
extension ColumnTable {
    func synthesize(at position: SphericalPosition, yearsSinceEpoch dt: Double) -> FieldVector {
        let s = position.sinLatitude
        let c = position.cosLatitude
        let rho = position.radiusRatio
        let sRho = s * rho
        let cRho = c * rho
        let rho2 = rho * rho
        let cosLambda = position.cosLongitude
        let sinLambda = position.sinLongitude
        let degree = self.degree
        let rateDegree = self.rateDegree

        var field = SphericalSums()
        var rate = SphericalSums()
        terms.withUnsafeBufferPointer { terms in
            rates.withUnsafeBufferPointer { rates in
                // (g, h) of term i, and (gdot, hdot) of rate i.
                @inline(__always) func coefficients(_ i: Int) -> SIMD2<Double> {
                    SIMD2(terms[4 &* i], terms[4 &* i &+ 1])
                }
                @inline(__always) func rateCoefficients(_ i: Int) -> SIMD2<Double> {
                    SIMD2(rates[2 &* i], rates[2 &* i &+ 1])
                }
                var t = 0       // term index
                var q = 0       // rate index
                var cosM = 1.0  // cos mλ
                var sinM = 0.0  // sin mλ
                // (a/r)^(m+2) P_m^m and its φ′-derivative; m = 0: P_0^0 = 1.
                var sectoral = rho2
                var sectoralDerivative = 0.0

                for m in 0...degree {
                    var main = ColumnSums()
                    var secular = ColumnSums()
                    var r1: Double
                    var d1: Double
                    var r2 = 0.0
                    var d2 = 0.0
                    var n: Int
                    if m == 0 {
                        r1 = rho2
                        d1 = 0
                        n = 1
                    } else {
                        // Past this, every remaining term is below 1e-200 nT;
                        // stopping keeps subnormal arithmetic out near the poles.
                        if abs(sectoral) < 1e-250 && abs(sectoralDerivative) < 1e-250 { break }
                        let k = terms[4 &* t &+ 2]
                        r1 = rho * k * sectoral
                        d1 = rho * k * sectoralDerivative
                        main.add(coefficients(t), nPlus1: Double(m + 1), value: r1, derivative: d1)
                        if m <= rateDegree {
                            secular.add(rateCoefficients(q), nPlus1: Double(m + 1), value: r1, derivative: d1)
                            q &+= 1
                        }
                        t &+= 1
                        sectoral = c * r1
                        sectoralDerivative = c * d1 - s * r1
                        n = m &+ 1
                    }
                    var nPlus1 = Double(n + 1)
                    // Degrees with secular variation.
                    while n <= rateDegree {
                        let a = terms[4 &* t &+ 2]
                        let u = a * sRho
                        let w = a * cRho
                        let v = terms[4 &* t &+ 3] * rho2
                        let r = u * r1 - v * r2
                        let d = u * d1 + (w * r1 - v * d2)
                        main.add(coefficients(t), nPlus1: nPlus1, value: r, derivative: d)
                        secular.add(rateCoefficients(q), nPlus1: nPlus1, value: r, derivative: d)
                        r2 = r1; r1 = r; d2 = d1; d1 = d
                        t &+= 1; q &+= 1; n &+= 1; nPlus1 += 1
                    }
                    // Main field only.
                    while n <= degree {
                        let a = terms[4 &* t &+ 2]
                        let u = a * sRho
                        let w = a * cRho
                        let v = terms[4 &* t &+ 3] * rho2
                        let r = u * r1 - v * r2
                        let d = u * d1 + (w * r1 - v * d2)
                        main.add(coefficients(t), nPlus1: nPlus1, value: r, derivative: d)
                        r2 = r1; r1 = r; d2 = d1; d1 = d
                        t &+= 1; n &+= 1; nPlus1 += 1
                    }
                    // Column m = 0 runs on Pₙ⁰ itself (factor 1, no sine term).
                    let cf = m == 0 ? 1.0 : c
                    let sf = m == 0 ? 0.0 : s
                    if m <= rateDegree {
                        // The sums are linear in the coefficients, so adding
                        // dt × the secular-variation sums moves the main field
                        // from the epoch to the date: g(t) = g + dt·ġ.
                        main.addScaled(secular, by: dt)
                        secular.contribute(order: Double(m), cosM: cosM, sinM: sinM, cos: cf, sin: sf, to: &rate)
                    }
                    main.contribute(order: Double(m), cosM: cosM, sinM: sinM, cos: cf, sin: sf, to: &field)
                    let nextCos = cosM * cosLambda - sinM * sinLambda
                    sinM = sinM * cosLambda + cosM * sinLambda
                    cosM = nextCos
                }
            }
        }
        // Rotate from the geocentric to the geodetic frame by ψ = φ′ − φ.
        let sinPsi = position.sinRotation
        let cosPsi = position.cosRotation
        return FieldVector(
            north: field.north * cosPsi - field.down * sinPsi,
            east: field.east,
            down: field.north * sinPsi + field.down * cosPsi,
            northRate: rate.north * cosPsi - rate.down * sinPsi,
            eastRate: rate.east,
            downRate: rate.north * sinPsi + rate.down * cosPsi
        )
    }
}

/// X′, Y′, Z′: north, east and down in the geocentric spherical frame.
struct SphericalSums {
    var north = 0.0
    var east = 0.0
    var down = 0.0
}

/// Running sums of one Legendre column, weighted by the Gauss coefficients;
/// each holds the g-weighted sum in lane 0 and the h-weighted one in lane 1.
struct ColumnSums {
    var value = SIMD2<Double>()       // Σ (g, h) R
    var weighted = SIMD2<Double>()    // Σ (n+1) (g, h) R
    var derivative = SIMD2<Double>()  // Σ (g, h) dR

    @inline(__always)
    mutating func add(_ gh: SIMD2<Double>, nPlus1: Double, value r: Double, derivative d: Double) {
        value += gh * r
        weighted += gh * (nPlus1 * r)
        derivative += gh * d
    }

    @inline(__always)
    mutating func addScaled(_ other: ColumnSums, by factor: Double) {
        value += other.value * factor
        weighted += other.weighted * factor
        derivative += other.derivative * factor
    }

    /// Adds this column's share of X′, Y′, Z′ (report eq. 10–12), with
    /// P = cos·R and dP = cos·dR − sin·R (`cos`, `sin` of φ′; 1 and 0 for m = 0).
    @inline(__always)
    func contribute(order m: Double, cosM: Double, sinM: Double, cos: Double, sin: Double,
                    to sums: inout SphericalSums) {
        let g = value.x, h = value.y
        sums.north -= cosM * (cos * derivative.x - sin * g) + sinM * (cos * derivative.y - sin * h)
        sums.east += m * (sinM * g - cosM * h)
        sums.down -= cos * (cosM * weighted.x + sinM * weighted.y)
    }
}
