import LodestoneSimulation
import Testing

/// A boat rolling ±20°, pitching ±8° and heaving, the sensor 4 m above the roll
/// axis, with the battery's usual gyro bias and with 1 °/s: no worse than VQF on the same log.
@Suite struct BoatBatteryTests {
    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .boat }.map(\.name))
    func boat(_ name: String) throws {
        let fused = try BatteryRun(name).checkCommonTargets().fused
        let vqf = try #require(VQFReference.headingRMSE(name))
        let bound = vqf + VQFReference.shortfall(name)
        #expect(fused.rmse <= bound, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (VQF gets \(vqf)°)")
    }
}
