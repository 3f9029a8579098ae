import LodestoneSimulation
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
}
