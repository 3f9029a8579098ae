import LodestoneSimulation
import Testing

/// Level turns from 0.05 to 100 °/s, at IMU rates of 25–1000 Hz, with a 20 Hz
/// magnetometer held against a 200 Hz IMU, and with a 1 °/s gyro bias: a slow
/// steady rotation must not be learned as gyro bias.
@Suite struct LevelTurnBatteryTests {
    /// Issue 11's target: heading RMSE ≤ 1.0° after the first 10 s, any rate, any IMU rate.
    static let targetRMSE = 1.0

    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .levelTurn }.map(\.name))
    func levelTurn(_ name: String) throws {
        let fused = try BatteryRun(name).checkCommonTargets()
        #expect(fused.rmse <= Self.targetRMSE, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (≤ 1.0° wanted)")
    }
}
