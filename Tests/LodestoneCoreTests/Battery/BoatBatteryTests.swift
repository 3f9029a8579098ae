import LodestoneSimulation
import Testing

/// A boat rolling ±20°, pitching ±8° and heaving, the sensor 4 m above the roll
/// axis, with the battery's usual gyro bias and with 1 °/s: no worse than VQF on the same log.
@Suite struct BoatBatteryTests {
    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .boat }.map(\.name))
    func boat(_ name: String) throws {
        let fused = try BatteryRun(name).checkCommonTargets()
        let vqf = try #require(VQFReference.headingRMSE(name))
        #expect(fused.rmse <= vqf, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (VQF gets \(vqf)°)")
    }
}
