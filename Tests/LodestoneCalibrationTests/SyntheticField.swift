import Foundation
import LodestoneCore
import LodestoneSimulation

extension RandomSource {
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    mutating func unitVector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()).normalized }

    /// Uniformly distributed attitude (normalised 4-D Gaussian).
    mutating func attitude() -> Quaternion {
        Quaternion(w: gaussian(), x: gaussian(), y: gaussian(), z: gaussian()).normalized
    }

    /// Yaw anywhere, roll and pitch each within ±`tilt` degrees.
    mutating func tiltedAttitude(maximumTilt tilt: Double) -> Quaternion {
        let yaw = uniform(0...(2 * Double.pi))
        let pitch = uniform(-tilt...tilt) * Angle.radiansPerDegree
        let roll = uniform(-tilt...tilt) * Angle.radiansPerDegree
        return Quaternion(axis: .unitZ, angle: yaw) * Quaternion(axis: .unitX, angle: pitch) * Quaternion(axis: .unitY, angle: roll)
    }
}

/// A magnetometer with known hard and soft iron in a known Earth field.
/// Attitudes rotate body vectors into ENU, field north = +y (declination 0).
struct DistortedMagnetometer {
    var totalIntensity = 50.0
    var dipDegrees = 60.0
    /// raw = distortion · B_body + hardIron + noise
    var distortion: Matrix3
    var hardIron: Vector3
    var noise = 0.5

    var earthField: Vector3 {
        let d = dipDegrees * Angle.radiansPerDegree
        return Vector3(0, totalIntensity * cos(d), -totalIntensity * sin(d))
    }

    func trueField(_ attitude: Quaternion) -> Vector3 { attitude.conjugate.rotate(earthField) }

    func read(_ attitude: Quaternion, _ rng: inout RandomSource) -> Vector3 {
        distortion * trueField(attitude) + hardIron
            + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * noise
    }

    /// Soft iron within ±30 % scale and ±15 % cross-coupling, hard iron up to
    /// `maximumHardIron` × the field. `symmetric` keeps the cross terms
    /// symmetric (no rotation part, which no magnetometer-only fit can see).
    static func random(_ rng: inout RandomSource, symmetric: Bool, maximumHardIron: Double = 2) -> DistortedMagnetometer {
        var m = DistortedMagnetometer(distortion: .identity, hardIron: .zero)
        var d = Matrix3.identity
        for i in 0..<3 { d[i, i] = rng.uniform(0.7...1.3) }
        for r in 0..<3 {
            for c in 0..<3 where r < c {
                d[r, c] = rng.uniform(-0.15...0.15)
                d[c, r] = symmetric ? d[r, c] : rng.uniform(-0.15...0.15)
            }
        }
        m.distortion = d
        m.hardIron = rng.unitVector() * rng.uniform(0...(maximumHardIron * m.totalIntensity))
        return m
    }
}

/// The simple tilt-compensated heading of body +y, degrees clockwise from
/// magnetic north: up = a/|a|, east = m × up, north = up × east.
func compassHeading(acceleration a: Vector3, field m: Vector3) -> Double {
    let up = a.normalized
    let east = m.cross(up).normalized
    let north = up.cross(east)
    return Angle.normalized360(atan2(east.dot(.unitY), north.dot(.unitY)) * Angle.degreesPerRadian)
}

/// The true heading of body +y for an attitude (ENU, north = +y).
func trueHeading(_ attitude: Quaternion) -> Double {
    let v = attitude.rotate(.unitY)
    return Angle.normalized360(atan2(v.x, v.y) * Angle.degreesPerRadian)
}

/// Relative Frobenius distance ‖a − b‖ / ‖b‖.
func relativeDifference(_ a: Matrix3, _ b: Matrix3) -> Double {
    func norm(_ m: Matrix3) -> Double { (m.row0.squaredLength + m.row1.squaredLength + m.row2.squaredLength).squareRoot() }
    return norm(a - b) / norm(b)
}
