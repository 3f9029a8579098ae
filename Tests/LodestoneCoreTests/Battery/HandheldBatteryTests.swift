import LodestoneSimulation
import Testing

/// Ten-minute tumbles through every orientation (one with a 1 °/s gyro bias,
/// one with a 20 Hz magnetometer held against a 200 Hz IMU) and walks with the
/// board in hand: no worse than VQF on the same logs.
@Suite struct HandheldBatteryTests {
    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .tumble || $0.kind == .walk }.map(\.name))
    func handheld(_ name: String) throws {
        let fused = try BatteryRun(name).checkCommonTargets().fused
        let vqf = try #require(VQFReference.headingRMSE(name))
        let bound = vqf + VQFReference.shortfall(name)
        #expect(fused.rmse <= bound, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (VQF gets \(vqf)°)")
    }
}
