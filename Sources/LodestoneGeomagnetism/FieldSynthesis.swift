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
                var t = 0       // index into terms (stride 4)
                var q = 0       // index into rates (stride 2)
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
                        let k = terms[t + 2]
                        r1 = rho * k * sectoral
                        d1 = rho * k * sectoralDerivative
                        let hasRate = m <= rateDegree
                        let g = hasRate ? terms[t] + dt * rates[q] : terms[t]
                        let h = hasRate ? terms[t + 1] + dt * rates[q + 1] : terms[t + 1]
                        main.add(g: g, h: h, nPlus1: Double(m + 1), value: r1, derivative: d1)
                        if hasRate {
                            secular.add(g: rates[q], h: rates[q + 1], nPlus1: Double(m + 1), value: r1, derivative: d1)
                            q += 2
                        }
                        t += 4
                        sectoral = c * r1
                        sectoralDerivative = c * d1 - s * r1
                        n = m + 1
                    }
                    var nPlus1 = Double(n + 1)
                    // Degrees with secular variation.
                    while n <= rateDegree {
                        let a = terms[t + 2]
                        let u = a * sRho
                        let w = a * cRho
                        let v = terms[t + 3] * rho2
                        let r = u * r1 - v * r2
                        let d = u * d1 + (w * r1 - v * d2)
                        let gDot = rates[q]
                        let hDot = rates[q + 1]
                        main.add(g: terms[t] + dt * gDot, h: terms[t + 1] + dt * hDot,
                                 nPlus1: nPlus1, value: r, derivative: d)
                        secular.add(g: gDot, h: hDot, nPlus1: nPlus1, value: r, derivative: d)
                        r2 = r1; r1 = r; d2 = d1; d1 = d
                        t += 4; q += 2; n += 1; nPlus1 += 1
                    }
                    // Main field only.
                    while n <= degree {
                        let a = terms[t + 2]
                        let u = a * sRho
                        let w = a * cRho
                        let v = terms[t + 3] * rho2
                        let r = u * r1 - v * r2
                        let d = u * d1 + (w * r1 - v * d2)
                        main.add(g: terms[t], h: terms[t + 1], nPlus1: nPlus1, value: r, derivative: d)
                        r2 = r1; r1 = r; d2 = d1; d1 = d
                        t += 4; n += 1; nPlus1 += 1
                    }
                    // Column m = 0 runs on Pₙ⁰ itself (factor 1, no sine term).
                    let cf = m == 0 ? 1.0 : c
                    let sf = m == 0 ? 0.0 : s
                    main.contribute(order: Double(m), cosM: cosM, sinM: sinM, cos: cf, sin: sf, to: &field)
                    if m <= rateDegree {
                        secular.contribute(order: Double(m), cosM: cosM, sinM: sinM, cos: cf, sin: sf, to: &rate)
                    }
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

/// Running sums of one Legendre column, weighted by the Gauss coefficients.
struct ColumnSums {
    var g = 0.0   // Σ g R
    var h = 0.0   // Σ h R
    var gn = 0.0  // Σ (n+1) g R
    var hn = 0.0  // Σ (n+1) h R
    var gd = 0.0  // Σ g dR
    var hd = 0.0  // Σ h dR

    @inline(__always)
    mutating func add(g cg: Double, h ch: Double, nPlus1: Double, value r: Double, derivative d: Double) {
        g += cg * r
        h += ch * r
        let rn = nPlus1 * r
        gn += cg * rn
        hn += ch * rn
        gd += cg * d
        hd += ch * d
    }

    /// Adds this column's share of X′, Y′, Z′ (report eq. 10–12), with
    /// P = cos·R and dP = cos·dR − sin·R (`cos`, `sin` of φ′; 1 and 0 for m = 0).
    @inline(__always)
    func contribute(order m: Double, cosM: Double, sinM: Double, cos: Double, sin: Double,
                    to sums: inout SphericalSums) {
        sums.north -= cosM * (cos * gd - sin * g) + sinM * (cos * hd - sin * h)
        sums.east += m * (sinM * g - cosM * h)
        sums.down -= cos * (cosM * gn + sinM * hn)
    }
}
