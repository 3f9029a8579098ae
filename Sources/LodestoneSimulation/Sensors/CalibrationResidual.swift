import LodestoneCore

/// What a good magnetometer calibration leaves behind: a small hard iron
/// (about 0.2 µT per axis) and a soft iron within about 0.3 % of identity,
/// drawn from a seed. Readings that carry only these are what the pipeline
/// sees after applying the user's profile.
struct CalibrationResidual {
    var hardIron: Vector3
    var softIron: Matrix3

    init(random: inout RandomSource) {
        let (hx, hy, hz) = random.gaussianVector(sigma: 0.2)
        hardIron = Vector3(hx, hy, hz)
        let (a, b, c) = random.gaussianVector(sigma: 0.003)
        let (d, e, f) = random.gaussianVector(sigma: 0.003)
        softIron = Matrix3(1 + a, d, e, d, 1 + b, f, e, f, 1 + c)
    }

    /// The profile's fit error, percent, as `lodestone calibrate` would have
    /// reported it: the RMS relative error of the corrected field's magnitude
    /// over directions spread evenly on the sphere, with the sensor's noise
    /// (`noise` µT per axis, of which the radial part shows) included.
    func fitErrorPercent(fieldStrength: Double, noise: Double) -> Double {
        var directions = RandomSource(seed: 0x7370_6865_7265)
        var sum = 0.0
        let count = 2000
        for _ in 0..<count {
            let (x, y, z) = directions.gaussianVector(sigma: 1)
            let b = Vector3(x, y, z).normalized * fieldStrength
            let e = (softIron * b + hardIron).length / fieldStrength - 1
            sum += e * e
        }
        let relativeNoise = noise / fieldStrength
        return (sum / Double(count) + relativeNoise * relativeNoise).squareRoot() * 100
    }
}
