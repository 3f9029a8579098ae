import LodestoneCore
@testable import LodestoneSimulation
import Testing

/// A car drive at 10–30 m/s with curves at 0.1–0.3 g, braking, a stop and road
/// vibration: without ground speed no worse than VQF on the same log, and with
/// it (speed aiding) within 2°.
@Suite struct DriveBatteryTests {
    /// Issue 11's target with speed aiding.
    static let targetWithSpeed = 2.0

    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .drive }.map(\.name))
    func driveWithoutSpeed(_ name: String) throws {
        let fused = try BatteryRun(name).checkCommonTargets().fused
        let vqf = try #require(VQFReference.headingRMSE(name))
        let bound = vqf + VQFReference.shortfall(name)
        #expect(fused.rmse <= bound, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (VQF gets \(vqf)°)")
    }

    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .driveWithSpeed }.map(\.name))
    func driveWithSpeed(_ name: String) throws {
        let fused = try BatteryRun(name).checkCommonTargets().fused
        #expect(fused.rmse <= Self.targetWithSpeed, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (≤ 2.0° wanted)")
    }

    /// The same drives read through a part's 20 Hz low-pass filter, which takes the
    /// road's vibration out (as a smooth road would). Pulling away at a steady 2.6 m/s²
    /// then read as rest: no rotation, a specific force on its line. Those windows
    /// taught the resting strength the car's acceleration, and the sustained
    /// accelerations that the gravity average's length shows went unseen: measured
    /// on 9876cd8 at 5.16° and 6.85° (VQF 4.5° and 4.3° on these samples), 7.2 % and
    /// 5.4 % beyond 3 × accuracy. The road's jolts had broken those windows before.
    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .drive }.map(\.name))
    func driveWithoutVibration(_ name: String) throws {
        let run = try BatteryRun(name, accelerometerLowPass: 20)
        let fused = run.score(.auto)
        print("battery \(name) through a 20 Hz low-pass: fused \(fused)")
        #expect(fused.rmse <= 2, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))°")
        #expect(fused.beyondShare <= 0.01, "\(name): \(BatteryRun.Score.fixed(100 * fused.beyondShare))% beyond 3 × accuracy")
    }

    /// The same drives read through a part's 5 Hz low-pass filter on both the
    /// accelerometer and the gyroscope (an MPU-6050's or MPU-9250's slowest DLPF
    /// setting at 100 Hz). The gyro's noise is then correlated over a dozen
    /// samples, and judged by each sample's scatter the car never stood still:
    /// the rest detector's slope test failed one judgement in two, the bias
    /// was learned on the move, and the tilt followed the car's accelerations.
    /// Measured on 8a9ef83 at 4.67° and 6.08° (2.5 % and 4.7 % beyond 3 × accuracy)
    /// through a two-pole Butterworth filter; VQF 4.29° and 15.0° on the same samples.
    @Test(arguments: ["drive", "drive-bias1"])
    func driveThroughAFiveHertzFilter(_ name: String) throws {
        let run = try BatteryRun(name, accelerometerLowPass: 5, gyroscopeLowPass: 5)
        let fused = run.score(.auto)
        print("battery \(name) through a 5 Hz low-pass: fused \(fused)")
        #expect(fused.rmse <= 2, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))°")
        #expect(fused.beyondShare <= 0.01, "\(name): \(BatteryRun.Score.fixed(100 * fused.beyondShare))% beyond 3 × accuracy")
    }

    /// Roads the battery does not drive (seeds 1–8), at 50 and 100 Hz, with the
    /// battery's largest bias and no speed: the accuracy stays honest after a
    /// long curve, whose tilt the compass turns into heading that outlives the
    /// tilt. Narrower accuracies failed here (docs/fusion.md, "Tried and not
    /// adopted", sharper accuracy in vehicles).
    @Test(arguments: [50.0, 100.0], 1...8)
    func drivesBeyondTheBattery(rate: Double, seed: Int) {
        let name = "drive-seed\(seed)-\(Int(rate))hz"
        let drive = SimulationBattery.makeCase(name, .drive, .drive(.init(seed: UInt64(seed))), rate: rate,
                                               bias: SimulationBattery.largeBias, magnetometerRate: nil, speed: false,
                                               environment: SimulationBattery.road, seed: UInt64(seed))
        let fused = BatteryRun(drive).score(.auto)
        print("\(name): fused \(fused)")
        #expect(fused.beyondShare <= 0.01,
                "\(name): error beyond 3 × headingAccuracy in \(BatteryRun.Score.fixed(100 * fused.beyondShare))% of valid samples (≤ 1 % wanted)")
    }
}
