import Foundation
@testable import LodestoneCore
import LodestoneSimulation

/// Synthetic IMU data with a known truth, for the fusion tests.
///
/// The earth field is 44 µT with a 68° dip (like BROAD's lab); gravity 9.81 m/s².
/// Noise comes from a seeded generator so every run sees the same data.
struct MotionSimulation {
    static let field = Vector3(0, 44 * cos(68 * Double.pi / 180), -44 * sin(68 * Double.pi / 180))
    static let gravity = 9.81

    var truth: Quaternion
    var gyroBias = Vector3.zero
    var gyroNoise = 0.002     // rad/s per sample
    var accelNoise = 0.05     // m/s² per sample
    var magNoise = 0.7        // µT per sample
    /// Extra field carried with the board (a magnet on it), µT, body frame.
    var bodyFieldOffset = Vector3.zero
    /// Extra field fixed in the room (a magnet nearby), µT, earth frame.
    var earthFieldOffset = Vector3.zero
    /// The Earth's rotation the gyro senses, rad/s, earth frame (none unless set).
    var earthRate = Vector3.zero
    private var random: RandomSource

    init(truth: Quaternion = .identity, seed: UInt64 = 1) {
        self.truth = truth
        random = RandomSource(seed: seed)
    }

    struct Reading {
        var acceleration: Vector3
        var magneticField: Vector3
        var angularRate: Vector3
    }

    /// Turns the truth by the body rate `rate` over `dt` and returns what the sensors read.
    mutating func step(rate: Vector3, dt: Double) -> Reading {
        truth = (truth * Quaternion(rotationVector: rate * dt)).normalized
        let toBody = truth.conjugate
        return Reading(
            acceleration: toBody.rotate(Vector3(0, 0, Self.gravity)) + noise(accelNoise),
            magneticField: toBody.rotate(Self.field + earthFieldOffset) + bodyFieldOffset + noise(magNoise),
            angularRate: rate + toBody.rotate(earthRate) + gyroBias + noise(gyroNoise))
    }

    private mutating func noise(_ sigma: Double) -> Vector3 {
        Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * sigma
    }
}

/// BROAD's heading error (degrees): the z part of the earth-frame error rotation.
func headingError(_ estimate: Quaternion, _ truth: Quaternion) -> Double {
    let e = estimate * truth.conjugate
    return 2 * atan(abs(e.z / e.w)) * Angle.degreesPerRadian
}
