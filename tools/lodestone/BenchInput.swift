import LodestoneCore
import LodestoneLogs
import LodestoneSimulation

/// What the pipeline and replay benchmarks run on: what a board on a vehicle
/// sees. A car drive at 100 Hz with rests (parked, and a stop at lights every
/// few minutes), braking and curves (linear and centripetal acceleration),
/// road vibration, a 0.3 °/s gyro bias with its walk, typical noise, and a
/// hard and soft iron that the calibration undoes.
enum BenchInput {
    static let rate = 100.0
    static let hardIron = Vector3(12, -7, 30)
    static let softIron = Matrix3(1.01, 0.01, 0, 0.01, 0.99, 0, 0, 0, 1)

    static func recording(samples: Int) -> ScenarioRecording {
        let duration = Double(samples) / rate + 1
        var sensors = SensorSuite.typical
        sensors.gyroscope.bias = Vector3(0.3, -0.2, 0.25) * Angle.radiansPerDegree
        sensors.magnetometer.hardIron = hardIron
        sensors.magnetometer.softIron = softIron
        let drive = Scenario.drive(.init(duration: duration, stops: max(1, Int(duration / 240)), seed: 7))
        return ScenarioRecording(scenario: drive, sensors: sensors, rate: rate, seed: 7)
    }

    static func samples(_ count: Int) -> [SensorSample] {
        var r = recording(samples: count)
        var samples: [SensorSample] = []
        samples.reserveCapacity(count)
        for _ in 0..<count { samples.append(r.nextSample()!) }
        return samples
    }

    /// The pipeline settings a calibrated user of this board has.
    static var settings: HeadingEstimator.Settings {
        var settings = HeadingEstimator.Settings()
        settings.calibration = MagneticCalibration(hardIron: hardIron, softIron: softIron.inverse!)
        settings.calibrationStatus = CalibrationStatus(fitErrorPercent: 1.2, fieldStrength: 50, dip: 65)
        return settings
    }

    /// A plain CSV log of `count` samples with gyroscope columns, at sensor resolution.
    static func writeCSV(_ path: String, samples count: Int) throws {
        var r = recording(samples: count)
        let writer = try LogWriter(path: path, metadata: nil, gyroscope: true)
        for _ in 0..<count { try writer.write(r.nextSample()!) }
        try writer.finish()
    }
}
